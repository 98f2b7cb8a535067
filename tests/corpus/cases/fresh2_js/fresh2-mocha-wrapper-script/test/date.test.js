const assert = require('assert');
describe('iso', () => {
  it('formats', () => assert.strictEqual(new Date(0).toISOString().slice(0, 10), '1970-01-02'));
  it('year', () => assert.strictEqual(new Date(0).getUTCFullYear(), 1970));
});
