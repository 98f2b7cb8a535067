import logging
from concurrent.futures import ThreadPoolExecutor, as_completed
logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(threadName)s %(message)s")
log = logging.getLogger("thumbs")

def render(name):
    raise LookupError(f"unknown encoding: webp (while rendering {name})")

ok = 0
with ThreadPoolExecutor(max_workers=2) as pool:
    futs = {pool.submit(render, n): n for n in ["a.png", "b.png", "c.png", "d.png"]}
    for fut in as_completed(futs):
        try:
            fut.result()
            ok += 1
        except Exception:
            log.exception("thumbnail %s failed", futs[fut])
log.info("wrote %d thumbnails", ok)
