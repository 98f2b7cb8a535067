const c = require('./c');
module.exports = () => c();
