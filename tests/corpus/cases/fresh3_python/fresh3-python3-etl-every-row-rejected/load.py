import csv, logging, sqlite3
logging.basicConfig(format="%(levelname)s %(message)s")
db = sqlite3.connect("shop.db")
db.execute("create table orders (id integer primary key, qty integer not null, price real not null)")
loaded = 0
for n, row in enumerate(csv.DictReader(open("orders.csv")), 1):
    try:
        db.execute("insert into orders values (?, ?, ?)", (int(row["id"]), int(row["quantity"]), float(row["price"])))
        loaded += 1
    except (KeyError, ValueError) as exc:
        logging.error("row %d rejected: %r", n, exc)
db.commit()
print(f"import finished: {loaded} rows loaded")
