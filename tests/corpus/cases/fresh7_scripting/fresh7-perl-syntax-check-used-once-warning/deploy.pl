use strict;
our $VERBOSE;
$main::DRY_RUN = 1;
sub release { my ($tag) = @_; print "releasing $tag\n"; return 1 }
release($ARGV[0] // 'v0.0.0');
