const assert = require('assert');
describe('api', () => {
  it('status', () => assert.equal(404, 200));
});
