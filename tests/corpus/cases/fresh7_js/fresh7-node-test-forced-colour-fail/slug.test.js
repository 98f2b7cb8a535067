const test = require('node:test');
const assert = require('node:assert');
const slug = require('./slug');
test('spaces', () => assert.strictEqual(slug('Hello World'), 'hello-world'));
test('punctuation', () => assert.strictEqual(slug('Hello, World!'), 'hello-world'));
