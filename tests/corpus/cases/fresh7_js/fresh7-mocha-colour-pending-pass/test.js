const assert = require('assert');
describe('inventory', () => {
  it('counts stock', () => assert.strictEqual(3 + 4, 7));
  it('reserves items', () => assert.ok(true));
  it('syncs with warehouse API');
});
