use strict; use warnings;
my @out;
for my $sec (qw(sales refunds)) {
  eval { open(my $fh, '<', "data/$sec.csv") or die "cannot open data/$sec.csv: $!\n"; push @out, scalar(<$fh>); 1 } or warn "section $sec skipped: $@";
}
print 'summary: ', scalar(@out), " sections\n";
