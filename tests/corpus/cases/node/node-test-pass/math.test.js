const test = require('node:test');
const assert = require('node:assert');
test('adds', () => assert.strictEqual(1 + 2, 3));
test('concat', () => assert.strictEqual('a' + 'b', 'ab'));
