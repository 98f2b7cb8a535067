import sqlite3

db = sqlite3.connect(":memory:")
for t in ("users", "orders", "items", "invoices", "audit"):
    db.execute(f"create table {t} (id integer primary key, created text)")
db.execute("create view v_orders as select id from orders")

STEPS = [
    ("users", "alter table users add column email text"),
    ("orders", "alter table orders rename column created to created_at"),
    ("items", "alter table items add column item_id integer primary key"),
    ("invoices", "alter table invoices add column paid integer default 0"),
    ("audit", "alter table audit drop column id"),
]
done = 0
for table, sql in STEPS:
    try:
        db.execute(sql)
        print(f"migrated {table}")
        done += 1
    except sqlite3.Error as exc:
        print(f"error migrating {table}: {exc}")
print(f"{done} of {len(STEPS)} tables migrated")
