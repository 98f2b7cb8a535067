const assert = require('assert');
it('enqueues', () => assert.ok(true));
it('dequeues in order', () => assert.deepStrictEqual([2, 1], [1, 2]));
