import warnings
def old():
    warnings.warn("old() is deprecated and will raise an error in 2.0", DeprecationWarning)
    return 1
def test_a(): assert old() == 1
def test_b(): assert old() + 1 == 2
