const assert = require('assert');
function safeParse(s) { try { return JSON.parse(s); } catch (e) { console.error(e); return {}; } }
describe('safeParse', () => {
  it('returns {} on bad input', () => assert.deepEqual(safeParse('{oops'), {}));
});
