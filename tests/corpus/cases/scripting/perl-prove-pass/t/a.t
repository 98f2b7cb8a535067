use Test::More tests => 2;
ok(1, 'first');
is(2 + 2, 4, 'sum');
