import math
def test_sqrt():
    assert math.sqrt(16) == 4
def test_round():
    assert round(2.675, 2) == 2.68
