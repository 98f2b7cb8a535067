const assert = require('assert');
const { price } = require('../lib/price');
it('vip discount', () => assert.strictEqual(price(100, 'vip'), 75));
