import pytest
from cart import reserve, price, OutOfStock

def test_reserve_ok():
    assert reserve("apple", 1) == 2

def test_reserve_out_of_stock():
    with pytest.raises(OutOfStock):
        reserve("pear", 1)

def test_price_mixed():
    assert price([("apple", 2), ("pear", 2)]) == 2.5

def test_price_unknown_item():
    assert price([("kiwi", 1)]) == 0
