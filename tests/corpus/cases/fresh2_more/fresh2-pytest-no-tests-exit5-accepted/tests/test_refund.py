def test_refund_full():
    assert 10 - 10 == 0

def test_partial_refund():
    assert 10 - 4 == 6
