insert into users (email, name) values ('b@x.io', 'b');
