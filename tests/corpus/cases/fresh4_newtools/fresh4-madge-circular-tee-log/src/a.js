const b = require('./b');
module.exports = () => b();
