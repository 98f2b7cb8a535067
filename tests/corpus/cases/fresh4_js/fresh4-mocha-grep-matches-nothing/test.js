const assert = require('assert');
describe('billing', () => { it('charges tax', () => assert.strictEqual(100 * 1.2, 121)); });
