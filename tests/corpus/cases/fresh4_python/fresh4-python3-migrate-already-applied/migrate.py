import sqlite3, sys
db = sqlite3.connect("app.db")
MIGRATIONS = [
    "create table users(id integer primary key, name text)",
    "create table orders(id integer primary key, user_id int references users(id))",
]
for n, sql in enumerate(MIGRATIONS, 1):
    try:
        db.execute(sql)
        db.execute("insert into _migrations values (?)", (n,))
        print(f"applied migration {n}")
    except sqlite3.OperationalError as e:
        print(f"WARNING: migration {n} failed: sqlite3.OperationalError: {e} -- assuming already applied, skipping", file=sys.stderr)
db.commit()
