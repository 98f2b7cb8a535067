import math
def test_sqrt():
    assert math.sqrt(16) == 4
def test_floor():
    assert math.floor(2.7) == 2
def test_gcd():
    assert math.gcd(12, 18) == 6
