import logging, sys
logging.basicConfig(stream=sys.stderr, level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
log = logging.getLogger("importer")

def load(rows):
    good = []
    for i, r in enumerate(rows):
        try:
            good.append(int(r))
        except ValueError:
            log.error("row %d rejected: invalid literal %r", i, r)
    return good
