import logging
logging.basicConfig(level=logging.INFO, format="%(levelname)s:%(name)s:%(message)s")
log = logging.getLogger("nightly")

def main():
    rows = ["1", "2", "x", "4", "y", "z", "7", "8", "q", "10"]
    bad = [r for r in rows if not r.isdigit()]
    rate = len(bad) / len(rows)
    if rate > 0.05:
        log.error("rejected %d/%d rows (%.0f%%): tolerance exceeded, aborting load", len(bad), len(rows), rate * 100)
        return 2
    log.info("loaded")

if __name__ == "__main__":
    main()
