create table customers (id integer primary key, name text);
insert into customers(name) values ('acme'), ('globex');
insert into accounts(customer_id, plan) values (1, 'pro');
select count(*) || ' customers' from customers;
