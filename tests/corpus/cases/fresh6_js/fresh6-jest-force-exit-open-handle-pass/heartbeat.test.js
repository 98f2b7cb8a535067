const h = require('./heartbeat');
test('add', () => { h.start(); expect(h.add(2, 3)).toBe(5); });
