console.log('hi');
