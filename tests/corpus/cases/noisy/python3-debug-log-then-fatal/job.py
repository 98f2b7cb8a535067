import logging, sys
logging.basicConfig(level=logging.DEBUG, format="%(asctime)s %(levelname)-5s %(name)s %(message)s")
log = logging.getLogger("etl")
for i in range(150):
    log.debug("fetched page %d (retries=0, errors=0)", i)
    log.info("transformed %d rows from page %d", 50, i)
log.critical("cannot write to warehouse: permission denied for schema analytics")
sys.exit(1)
