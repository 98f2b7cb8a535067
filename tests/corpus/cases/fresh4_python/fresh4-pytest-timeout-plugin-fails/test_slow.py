import time

def test_fast():
    assert sum(range(10)) == 45

def test_waits_for_lock():
    while True:
        time.sleep(0.1)
