import sys, warnings
def test_5():
    warnings.warn('legacy api 5', DeprecationWarning)
    print('debug: module 5 loaded ok', file=sys.stderr)
    assert 5 != 4
