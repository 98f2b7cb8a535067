import logging
log = logging.getLogger("sync")

def fetch_with_retry(fn, tries=3):
    for n in range(1, tries + 1):
        try:
            return fn()
        except TimeoutError as e:
            level = logging.ERROR if n == tries - 1 else logging.WARNING
            log.log(level, "attempt %d failed: %s", n, e)
    raise RuntimeError("gave up")

def test_recovers_on_third_attempt():
    calls = []
    def flaky():
        calls.append(1)
        if len(calls) < 3:
            raise TimeoutError("upstream timed out after 5s")
        return "payload"
    assert fetch_with_retry(flaky) == "payload"
