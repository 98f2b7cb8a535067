const unused = 1;
console.log('started');
