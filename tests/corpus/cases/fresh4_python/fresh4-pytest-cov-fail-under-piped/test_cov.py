from cart import reserve

def test_one():
    assert reserve('apple', 1) == 2
