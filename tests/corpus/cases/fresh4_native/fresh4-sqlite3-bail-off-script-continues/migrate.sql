create table users(id integer primary key, email text unique not null);
insert into users(email) values ('a@x');
insert into users(email) values ('a@x');
create index users_email on users(email);
