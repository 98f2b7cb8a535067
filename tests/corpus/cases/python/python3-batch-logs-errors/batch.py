import logging
logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
log = logging.getLogger("import")
records = ["1", "2", "x"]
done = 0
for r in records:
    try:
        int(r)
        done += 1
    except ValueError:
        log.exception("record %r could not be imported", r)
log.info("imported %d/%d records", done, len(records))
