import { parse } from './parse.js';
test('valid payload', () => { expect(parse('{"a":1}')).toEqual({ a: 1 }); });
test('invalid payload returns null', () => { expect(parse('{a:')).toBeNull(); });
