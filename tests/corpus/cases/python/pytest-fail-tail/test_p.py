import pytest
@pytest.mark.parametrize("n,expected", [(1, 1), (2, 4), (3, 9), (4, 15)])
def test_square(n, expected):
    assert n * n == expected
