insert into users(name) values ('cat');
insert into users(name) values ('ann');
insert into users(name) values ('dan');
