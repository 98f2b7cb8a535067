const test = require('node:test');
const assert = require('node:assert');
function parse(s) { try { return JSON.parse(s); } catch (e) { console.error('parse error:', e); return null; } }
test('bad json gives null', () => assert.strictEqual(parse('{'), null));
test('good json', () => assert.deepStrictEqual(parse('{"a":1}'), {a: 1}));
