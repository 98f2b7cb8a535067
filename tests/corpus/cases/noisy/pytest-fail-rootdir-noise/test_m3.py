import sys, warnings
def test_3():
    warnings.warn('legacy api 3', DeprecationWarning)
    print('debug: module 3 loaded ok', file=sys.stderr)
    assert 3 != 4
