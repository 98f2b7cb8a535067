import logging, os
logging.basicConfig(level=logging.DEBUG, format="%(asctime)s %(levelname)-5s %(name)s %(message)s")
log = logging.getLogger("sync")
for i in range(400):
    log.debug("checked file src/pkg/module_%03d.py mtime unchanged, skip", i)
os.setuid(65534) if os.getuid() == 0 else None
with open("ro/state.json", "w") as fh:
    fh.write("{}")
