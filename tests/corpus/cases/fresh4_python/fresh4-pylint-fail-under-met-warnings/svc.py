import logging
log = logging.getLogger(__name__)


def run(a, b, c, d, e, f):
    try:
        return a + b + c + d + e + f
    except Exception:
        log.exception('sum failed')
        return None
