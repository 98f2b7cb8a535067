use strict; use warnings;
use Test::More tests => 3;
ok(1, 'loads');
is(lc('ABC'), 'abc', 'lc');
is(sprintf('%.2f', 2.675), '2.68', 'rounding');
