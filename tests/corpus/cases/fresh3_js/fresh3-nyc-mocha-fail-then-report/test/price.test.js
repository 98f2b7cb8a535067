const assert = require('assert');
const { price } = require('../lib/price');
it('member discount', () => assert.strictEqual(price(100, 'member'), 90));
