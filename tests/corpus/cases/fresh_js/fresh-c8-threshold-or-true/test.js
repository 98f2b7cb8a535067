const assert = require('node:assert');
const { fee } = require('./lib');
assert.strictEqual(fee(100, 'gold'), 0);
assert.strictEqual(fee(100, 'none'), 2);
console.log('fee tests ok');
