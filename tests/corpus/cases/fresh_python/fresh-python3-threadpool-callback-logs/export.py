import logging, os
from concurrent.futures import ThreadPoolExecutor
logging.basicConfig(format="%(asctime)s %(levelname)s %(name)s: %(message)s")
log = logging.getLogger("export")

def export(name):
    with open(os.path.join("out-missing-dir", name + ".csv"), "w") as f:
        f.write("id,value\n")

def done(fut):
    exc = fut.exception()
    if exc:
        log.error("export job failed", exc_info=exc)

with ThreadPoolExecutor(2) as pool:
    for name in ("users", "orders", "invoices"):
        pool.submit(export, name).add_done_callback(done)
print("export finished")
