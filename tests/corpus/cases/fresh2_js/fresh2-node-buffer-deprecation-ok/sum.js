const crypto = require('crypto');
const b = new Buffer('hello');
console.log(crypto.createHash('sha1').update(b).digest('hex'));
