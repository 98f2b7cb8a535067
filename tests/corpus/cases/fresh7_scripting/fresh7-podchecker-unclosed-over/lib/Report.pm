package Report;
use strict;
1;
__END__

=head1 NAME

Report - render weekly reports

=head1 OPTIONS

=over 4

=item B<--format>

Output format, see L<|Report::Format>.

=head1 AUTHOR

Corpus
