const { load } = require('../config');
QUnit.test('valid port', (a) => a.equal(load({ PORT: '3000' }).port, 3000));
QUnit.test('invalid port falls back', (a) => a.equal(load({ PORT: 'abc' }).port, 8080));
