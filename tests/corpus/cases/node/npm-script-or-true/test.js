const assert = require('assert');
assert.deepStrictEqual({total: 3}, {total: 4});
