require('http').createServer((q, s) => s.end('ok')).listen(0, '127.0.0.1', () => console.log('listening'));
