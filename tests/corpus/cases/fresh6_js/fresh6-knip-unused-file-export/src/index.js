const { add } = require('./math');
console.log(add(1, 2));
