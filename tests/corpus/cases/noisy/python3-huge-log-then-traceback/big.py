import logging
logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
log = logging.getLogger("loader")
for i in range(8000):
    log.info("loaded shard %05d of 8000 (0 errors so far, retries=0, lag=12ms)", i)
raise KeyError("shard_8000: missing from manifest")
