const { handle } = require('./handler');
test('returns value', () => expect(handle(() => 2).value).toBe(2));
test('wraps TypeError', () => expect(handle(() => null.x).ok).toBe(false));
test('wraps thrown Error', () => expect(handle(() => { throw new Error('db down'); }).error).toBe('db down'));
