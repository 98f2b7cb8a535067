let n = 0;
const assert = require('assert');
describe('queue client', () => {
  it('publishes', () => {
    n += 1;
    if (n === 1) { console.error('Error: read ECONNRESET (attempt ' + n + ')'); throw new Error('read ECONNRESET'); }
    assert.ok(true);
  });
});
