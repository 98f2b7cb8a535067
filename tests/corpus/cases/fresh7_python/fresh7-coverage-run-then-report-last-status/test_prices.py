from prices import with_vat, discount

def test_vat():
    assert with_vat(10) == 12.0

def test_discount():
    assert discount(80, 25) == 60

def test_discount_never_negative():
    assert discount(10, 150) == 0
