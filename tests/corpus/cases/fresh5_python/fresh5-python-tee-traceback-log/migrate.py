import sqlite3
db = sqlite3.connect("app.db")
db.execute("create table users(id integer primary key, email text unique)")
db.executemany("insert into users(email) values (?)", [("a@x.io",), ("b@x.io",)])
print("applying 0002_backfill_emails")
db.execute("insert into users(email) values ('a@x.io')")
db.commit()
print("migrations applied")
