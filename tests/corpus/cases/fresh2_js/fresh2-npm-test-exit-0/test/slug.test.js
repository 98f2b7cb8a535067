const test = require('node:test');
const assert = require('assert');
const slug = (s) => s.toLowerCase().replace(' ', '-');
test('slug of two spaces', () => assert.strictEqual(slug('A B C'), 'a-b-c'));
