import csv, io, logging, sqlite3, sys
logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")
log = logging.getLogger("etl")
rows = ["id,amount"] + [f"{i},{i * 1.5}" for i in range(197)] + ["198,N/A", "199,", "x,3"]
db = sqlite3.connect("w.db")
db.execute("create table t(id int, amount real)")
bad = 0
for n, r in enumerate(csv.DictReader(io.StringIO("\n".join(rows)))):
    try:
        db.execute("insert into t values (?, ?)", (int(r["id"]), float(r["amount"])))
    except ValueError:
        bad += 1
        if bad == 1:
            log.exception("row %d rejected", n)
        else:
            log.error("row %d rejected: %r", n, r)
db.commit()
total = db.execute("select count(*) from t").fetchone()[0]
rate = bad / (total + bad)
log.info("loaded %d rows, rejected %d (%.1f%%, tolerance 5%%)", total, bad, rate * 100)
sys.exit(1 if rate > 0.05 else 0)
