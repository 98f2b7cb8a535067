import pytest
def test_basic():
    assert sorted([3, 1]) == [1, 3]
@pytest.mark.xfail(reason="bug #412: TypeError when comparing None keys", raises=TypeError)
def test_none_keys():
    sorted([None, 1])
@pytest.mark.xfail(reason="bug #419: parser crashes on empty header")
def test_empty_header():
    raise ValueError("empty header")
