import warnings
def test_a():
    warnings.warn('slow path used', UserWarning)
    assert True
