use strict; use warnings;
my @rows = eval { die "DBI connect('dbname=sales') failed: could not connect to server\n" };
warn "load failed: $@" if $@;
open my $fh, ">", "report.txt" or die;
print $fh "$_\n" for @rows;
close $fh;
print "report written\n";
