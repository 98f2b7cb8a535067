const total = require('./total');
test('empty', () => expect(total([])).toBe(0));
