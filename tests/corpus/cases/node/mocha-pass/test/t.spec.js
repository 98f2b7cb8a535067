const assert = require('assert');
describe('math', () => {
  it('adds', () => assert.equal(1 + 1, 2));
  it('muls', () => assert.equal(2 * 3, 6));
});
