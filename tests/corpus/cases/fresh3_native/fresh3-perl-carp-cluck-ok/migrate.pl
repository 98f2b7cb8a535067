use strict; use warnings; use Carp qw(cluck);
sub run_step { my %o = @_; cluck('option "legacy" is deprecated') if $o{legacy}; return 'applied' }
print 'step 1: ', run_step(legacy => 1), "\n";
print "migration complete\n";
