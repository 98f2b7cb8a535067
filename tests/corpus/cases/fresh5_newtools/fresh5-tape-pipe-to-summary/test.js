const test = require('tape');
test('slug', (t) => { t.equal('A B'.toLowerCase().replace(' ', '-'), 'a-b'); t.equal('A  B'.toLowerCase().replace(' ', '-'), 'a-b'); t.end(); });
