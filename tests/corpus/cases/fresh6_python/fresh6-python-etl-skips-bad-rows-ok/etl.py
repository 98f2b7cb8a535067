import csv, logging, sqlite3
logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
log = logging.getLogger("etl")
db = sqlite3.connect("out.db")
db.execute("create table sales(day text, amount real)")
ok = 0
with open("sales.csv") as f:
    for n, row in enumerate(csv.DictReader(f), start=2):
        try:
            db.execute("insert into sales values (?, ?)", (row["day"], float(row["amount"])))
            ok += 1
        except ValueError as exc:
            log.warning("line %d skipped: ValueError: %s", n, exc)
db.commit()
log.info("loaded %d rows", ok)
