const assert = require('assert');
assert.strictEqual([1,2,3].indexOf(4), 3, 'indexOf should find 4');
