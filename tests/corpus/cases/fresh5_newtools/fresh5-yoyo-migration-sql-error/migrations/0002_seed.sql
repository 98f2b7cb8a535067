insert into users (email) values ('a@x.io');
