const http = require('http');
module.exports = http.createServer((q, s) => s.end('ok')).listen(0, '127.0.0.1');
