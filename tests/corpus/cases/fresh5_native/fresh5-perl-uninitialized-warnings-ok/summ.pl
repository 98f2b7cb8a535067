my %c;
while (<>) { chomp; my ($ip, $code) = split / /; $c{$code}++ if $code >= 200; }
print "$_ $c{$_}\n" for sort keys %c;
