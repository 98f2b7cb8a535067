use strict; use warnings;
my $rows = 0;
open(my $fh, '<', 'sales-2024-06.csv') or warn "Cannot open sales-2024-06.csv: $!\n";
if ($fh) { while (<$fh>) { $rows++ } }
print "report: $rows rows processed\n";
