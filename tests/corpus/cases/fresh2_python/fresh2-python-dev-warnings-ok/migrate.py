import sqlite3, datetime, warnings
warnings.warn("the 'legacy_id' column is deprecated and will be dropped in 3.0", DeprecationWarning)
f = open("rows.txt", "w"); f.write("x")
del f
db = sqlite3.connect("app.db")
db.execute("create table users (name text, created text)")
for n in ["ada", "bob", "cy"]:
    db.execute("insert into users values (?, ?)", (n, datetime.datetime.utcnow().isoformat()))
db.commit()
db.close()
print("migrated 3 rows")
