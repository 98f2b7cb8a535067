const _ = require('lodash');
const chalk = require('chalk');
console.log(_.chunk([1, 2, 3], 2), chalk);
