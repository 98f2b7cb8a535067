import sqlite3
db = sqlite3.connect("app.db")
db.execute("create table users(id integer primary key, name text)")
steps = ["alter table user add column email text", "create index ix_users_name on users(name)"]
for i, sql in enumerate(steps, 1):
    try:
        db.execute(sql)
        print(f"step {i}: ok")
    except sqlite3.Error as exc:
        print(f"step {i}: {type(exc).__name__}: {exc}")
db.commit()
print("migrations complete")
