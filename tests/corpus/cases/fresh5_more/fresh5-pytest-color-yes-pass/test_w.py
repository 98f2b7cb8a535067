import warnings

def test_a():
    warnings.warn('old API', DeprecationWarning)
    assert True
