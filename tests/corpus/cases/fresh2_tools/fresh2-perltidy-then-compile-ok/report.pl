use strict;use warnings;my %h=(a=>1,b=>2);for my $k(sort keys %h){print "$k=$h{$k}\n"}
