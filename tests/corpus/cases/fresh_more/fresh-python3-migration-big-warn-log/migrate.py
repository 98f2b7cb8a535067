import logging
logging.basicConfig(level=logging.INFO, format="%(levelname)s migrate: %(message)s")
log = logging.getLogger()
rows = [{"id": i, "fax": f"+49-30-{i:06d}", "email": f"u{i}@example.invalid"} for i in range(1, 1501)]
out = []
for r in rows:
    log.warning("row %d: field 'fax' is deprecated and was dropped (value %s)", r["id"], r.pop("fax"))
    out.append(r)
with open("users.v2.jsonl", "w") as f:
    for r in out:
        f.write(f"{r}\n")
log.info("migrated %d rows, 0 errors", len(out))
