create table users (id integer primary key, email text not null);
