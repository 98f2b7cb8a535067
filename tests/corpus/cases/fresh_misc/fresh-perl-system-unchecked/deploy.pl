use strict; use warnings;
system('cp', 'build/app.tar.gz', 'releases/');
print "deployed app.tar.gz to releases/\n";
