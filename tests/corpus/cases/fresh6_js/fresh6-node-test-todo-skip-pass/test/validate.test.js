const test = require('node:test');
const assert = require('node:assert');
function validate(email) {
  if (!email.includes('@')) { console.error(`ERROR invalid email rejected: ${email}`); return false; }
  return true;
}
test('accepts', () => assert.ok(validate('a@b.c')));
test('rejects', () => assert.ok(!validate('nope')));
test('unicode domains', { todo: true });
