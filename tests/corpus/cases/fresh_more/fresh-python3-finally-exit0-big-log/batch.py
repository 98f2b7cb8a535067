import logging, sys
logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s batch: %(message)s")
log = logging.getLogger()
try:
    for i in range(1, 3001):
        log.info("record %d: normalised address, geocoded, queued for write", i)
    raise OSError(28, "No space left on device", "/var/spool/batch/out-0001.parquet")
except OSError:
    log.exception("batch aborted while writing output")
finally:
    log.info("shutting down workers")
    sys.exit(0)
