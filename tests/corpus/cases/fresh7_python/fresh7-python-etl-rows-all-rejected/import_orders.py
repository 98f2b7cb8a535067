import csv, logging, sqlite3, sys

logging.basicConfig(format="%(asctime)s %(levelname)s %(message)s", level=logging.INFO)
src, dst = sys.argv[1], sys.argv[2]
db = sqlite3.connect(dst)
db.execute("create table if not exists orders (id integer primary key, customer text, total real)")
ok = 0
with open(src, newline="") as fh:
    for n, row in enumerate(csv.DictReader(fh), 1):
        try:
            db.execute("insert into orders values (?, ?, ?)", (int(row["id"]), row["customer"], float(row["total"])))
            ok += 1
        except (KeyError, ValueError) as exc:
            logging.error("row %d skipped: %r", n, exc)
db.commit()
logging.info("import finished: %d rows written to %s", ok, dst)
