define(`SITE', `example.org')dnl
include(`ports.m4')dnl
server_name SITE;
listen PORT;
