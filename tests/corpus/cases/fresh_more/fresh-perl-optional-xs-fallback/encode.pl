use strict; use warnings;
my $json;
if (eval { require JSON::XS; 1 }) { $json = JSON::XS->new->canonical }
else {
    warn "warning: JSON::XS not available, falling back to JSON::PP: $@";
    require JSON::PP; $json = JSON::PP->new->canonical;
}
print $json->encode({ name => 'ada', langs => ['perl', 'c'] }), "\n";
