import pytest
from retry import call_with_retry

def flaky(n):
    state = {"left": n}
    def fn():
        if state["left"]:
            state["left"] -= 1
            raise ConnectionError("upstream 503 Service Unavailable")
        return "ok"
    return fn

def test_recovers():
    assert call_with_retry(flaky(2)) == "ok"

def test_first_try():
    assert call_with_retry(flaky(0)) == "ok"

def test_gives_up():
    with pytest.raises(ConnectionError, match="all attempts failed"):
        call_with_retry(flaky(5))
