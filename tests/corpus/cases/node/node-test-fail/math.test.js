const test = require('node:test');
const assert = require('node:assert');
test('adds', () => assert.strictEqual(1 + 2, 3));
test('totals', () => assert.deepStrictEqual([1, 2].map((x) => x * 2), [2, 5]));
