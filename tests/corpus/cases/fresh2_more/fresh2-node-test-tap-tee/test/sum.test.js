const test = require('node:test');
const assert = require('assert');
test('sum', () => assert.strictEqual([0.1, 0.2].reduce((a, b) => a + b), 0.3));
