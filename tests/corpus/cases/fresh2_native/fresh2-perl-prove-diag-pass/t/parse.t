use strict; use warnings;
use Test::More tests => 2;
sub parse { my $s = shift; return $s =~ /^\d+$/ ? $s : do { diag("ERROR: cannot parse '$s'"); undef } }
is(parse("12"), 12, "number");
ok(!defined parse("1x"), "garbage rejected");
