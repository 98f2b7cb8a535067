my @rows = (['a', 1, 'x'], ['b', 2]);
for my $r (@rows) { print join(',', $r->[0], $r->[1], $r->[2]) . "\n"; }
print "report: 2 rows\n";
