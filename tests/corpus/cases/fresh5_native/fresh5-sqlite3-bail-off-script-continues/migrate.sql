.bail off
create table t(id integer primary key, name text);
insert into t(name) values ('a');
update t set email = lower(name);
create index t_name on t(name);
