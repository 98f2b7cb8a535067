import sys, warnings
def test_7():
    warnings.warn('legacy api 7', DeprecationWarning)
    print('debug: module 7 loaded ok', file=sys.stderr)
    assert 7 != 4
