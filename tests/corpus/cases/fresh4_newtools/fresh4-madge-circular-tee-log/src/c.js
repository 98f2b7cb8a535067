const a = require('./a');
module.exports = () => typeof a;
