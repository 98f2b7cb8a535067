const { parseQuery } = require('../query');
QUnit.module('parseQuery', () => {
  QUnit.test('simple', (a) => a.deepEqual(parseQuery('?a=1&b=2'), { a: '1', b: '2' }));
  QUnit.test('empty', (a) => a.deepEqual(parseQuery(''), {}));
  QUnit.test('encoded', (a) => a.deepEqual(parseQuery('q=hello%20world'), { q: 'hello world' }));
});
