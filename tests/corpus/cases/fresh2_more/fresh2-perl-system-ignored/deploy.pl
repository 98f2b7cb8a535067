use strict; use warnings;
print "running migrations\n";
system('python3', '-c', 'raise SystemExit("migration 0042 failed: column users.email already exists")');
print "deployed\n";
