use strict;
use warnings;
my $n = 0;
for my $i (1 .. 3) { $n += $i; }
print "$n\n";
