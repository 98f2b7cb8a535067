use strict; use warnings;
my $ok = 0;
for my $f (@ARGV) { eval { open(my $fh, '<', $f) or die "cannot open $f: $!\n"; $ok++; 1 } or warn "skipping: $@"; }
print "summary: $ok files parsed\n";
