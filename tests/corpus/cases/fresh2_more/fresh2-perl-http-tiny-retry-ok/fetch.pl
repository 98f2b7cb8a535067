use strict; use warnings; use HTTP::Tiny;
my $url = "$ENV{HTTP_APP}/flaky/f2-perl/2";
my $http = HTTP::Tiny->new(timeout => 5);
for my $try (1 .. 5) {
    my $r = $http->get($url);
    if ($r->{success}) { print "fetched: $r->{content}"; exit 0 }
    warn "error: attempt $try got $r->{status} $r->{reason}, retrying\n";
    select(undef, undef, undef, 0.1);
}
die "giving up\n";
