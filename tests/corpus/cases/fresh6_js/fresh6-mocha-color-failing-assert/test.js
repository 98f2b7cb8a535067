const assert = require('assert');
it('merges config', () => {
  assert.deepStrictEqual(Object.assign({a: 1}, {b: 2}), {a: 1, b: 3});
});
