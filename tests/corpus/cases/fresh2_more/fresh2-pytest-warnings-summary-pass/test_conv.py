import warnings

def convert(v, unit="c"):
    if unit == "C":
        warnings.warn("unit 'C' is deprecated, use 'c'", DeprecationWarning)
    if v < -273.15:
        warnings.warn(f"value {v} below absolute zero, clamped", UserWarning)
        v = -273.15
    return v * 9 / 5 + 32

def test_c():
    assert convert(100) == 212

def test_upper():
    assert convert(0, "C") == 32

def test_clamp():
    assert round(convert(-300), 2) == -459.67
