import warnings
def test_0():
    warnings.warn('deprecated option 0', DeprecationWarning)
    assert 0 < 7
def test_1():
    warnings.warn('deprecated option 1', DeprecationWarning)
    assert 1 < 7
def test_2():
    warnings.warn('deprecated option 2', DeprecationWarning)
    assert 2 < 7
def test_3():
    warnings.warn('deprecated option 3', DeprecationWarning)
    assert 3 < 7
def test_4():
    warnings.warn('deprecated option 4', DeprecationWarning)
    assert 4 < 7
def test_5():
    warnings.warn('deprecated option 5', DeprecationWarning)
    assert 5 < 7
def test_6():
    warnings.warn('deprecated option 6', DeprecationWarning)
    assert 6 < 7
def test_7():
    warnings.warn('deprecated option 7', DeprecationWarning)
    assert 7 < 7
def test_8():
    warnings.warn('deprecated option 8', DeprecationWarning)
    assert 8 < 7
