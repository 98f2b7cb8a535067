import logging
log = logging.getLogger("handler")
def handle(msg):
    try:
        return int(msg)
    except ValueError:
        log.error("bad message %r dropped: invalid literal", msg)
        return None
def test_bad(): assert handle("x") is None
def test_good(): assert handle("3") == 3
