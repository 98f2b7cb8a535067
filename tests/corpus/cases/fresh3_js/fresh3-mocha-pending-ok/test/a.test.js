const assert = require('assert');
it('one', () => assert.ok(1));
it('two', () => assert.ok(2));
it('todo: pagination');
it.skip('slow export', () => {});
