create table users(id integer primary key);
create table orders(id integer primary key, user_id integer references users(id));
insert into users values (1);
insert into orders values (10, 1), (11, 2), (12, 3);
