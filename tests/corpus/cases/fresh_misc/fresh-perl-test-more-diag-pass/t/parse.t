use strict; use warnings;
use Test::More tests => 2;
sub parse_port { my $s = shift; return $s =~ /^\d+$/ ? $s : do { diag("ERROR: invalid port '$s'"); undef } }
is(parse_port('8080'), 8080, 'numeric port');
is(parse_port('http'), undef, 'non-numeric port rejected');
