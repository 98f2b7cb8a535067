alter table users add column email text;
