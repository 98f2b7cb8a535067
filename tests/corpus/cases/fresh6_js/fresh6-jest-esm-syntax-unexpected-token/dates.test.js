const { isoDay } = require('./src/dates.mjs.js');
test('day', () => expect(isoDay(new Date(0))).toBe('1970-01-01'));
