import pytest
@pytest.mark.skip(reason="needs network")
def test_net(): pass
@pytest.mark.xfail(reason="known bug #12: raises ValueError")
def test_bug(): raise ValueError("boom")
def test_ok(): assert True
