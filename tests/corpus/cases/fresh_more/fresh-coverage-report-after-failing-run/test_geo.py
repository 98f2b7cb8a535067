from geo import clamp_lat

def test_clamp():
    assert clamp_lat(100) == 90

def test_negative():
    assert clamp_lat(-100) == -91
