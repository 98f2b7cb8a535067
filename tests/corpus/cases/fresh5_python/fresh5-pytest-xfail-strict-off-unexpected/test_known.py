import pytest

@pytest.mark.xfail(reason="bug #412: AssertionError on leap-day rollover", raises=AssertionError)
def test_leap_day():
    assert (29, 2) == (1, 3)

@pytest.mark.xfail(reason="flaky on CI: TimeoutError talking to cache")
def test_cache():
    assert True

def test_ok():
    assert 2 * 2 == 4
