const { test } = require('uvu');
const assert = require('uvu/assert');
function valid(p) { if (!p.email) { console.error('ValidationError: "email" is required'); return false; } return true; }
test('rejects missing email', () => { assert.is(valid({}), false); });
test('accepts email', () => { assert.is(valid({email: 'a@x'}), true); });
test.run();
