const assert = require('assert');
let calls = 0;
function fetchRates() {
  calls++;
  if (calls < 3) { const e = new Error('read ECONNRESET'); e.code = 'ECONNRESET'; throw e; }
  return { EUR: 1, USD: 1.09 };
}
describe('rates', function () {
  this.retries(3);
  it('loads rates', function () {
    try { assert.strictEqual(fetchRates().USD, 1.09); }
    catch (e) { console.error(`Error: ${e.message} (attempt ${calls})`); throw e; }
  });
});
