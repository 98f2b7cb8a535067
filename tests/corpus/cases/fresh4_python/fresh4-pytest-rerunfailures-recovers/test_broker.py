import os, sys, logging
log = logging.getLogger("broker")

def connect():
    marker = ".attempted"
    if not os.path.exists(marker):
        open(marker, "w").close()
        raise ConnectionError("broker unavailable: connection refused (127.0.0.1:5672)")
    return "connected"

def test_publish():
    assert connect() == "connected"

def test_other():
    assert 1 + 1 == 2
