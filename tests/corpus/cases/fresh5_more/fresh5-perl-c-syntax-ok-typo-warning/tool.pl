my $n = 1;
$verbos = 1;
print "$n\n";
