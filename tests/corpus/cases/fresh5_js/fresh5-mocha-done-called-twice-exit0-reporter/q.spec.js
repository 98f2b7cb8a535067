const assert = require('assert');
describe('queue', () => {
  it('fifo', () => assert.deepStrictEqual([1,2,3].reverse(), [1,2,3]));
  it('len', () => assert.equal([1].length, 1));
});
