const assert = require('assert');
describe('math', () => {
  it('adds', () => assert.equal(1 + 1, 2));
  it('divides', () => assert.strictEqual(7 / 2, 3));
});
