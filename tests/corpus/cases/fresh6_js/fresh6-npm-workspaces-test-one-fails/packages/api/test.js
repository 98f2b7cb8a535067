const assert = require('assert');
assert.strictEqual(encodeURIComponent('a b'), 'a+b');
