console.log('hi');
console.log('there');
