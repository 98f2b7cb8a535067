def reserve(stock, qty):
    return stock - qty

def test_reserve():
    assert reserve(10, 3) == 7

def test_reserve_never_negative():
    assert reserve(2, 5) >= 0, "stock went negative"
