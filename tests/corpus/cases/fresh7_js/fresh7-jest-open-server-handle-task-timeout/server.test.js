const server = require('./server');
test('listening', (done) => { server.on('listening', () => { expect(server.address().port).toBeGreaterThan(0); done(); }); if (server.listening) { expect(server.address().port).toBeGreaterThan(0); done(); } });
