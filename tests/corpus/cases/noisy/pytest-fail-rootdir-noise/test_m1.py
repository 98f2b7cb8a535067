import sys, warnings
def test_1():
    warnings.warn('legacy api 1', DeprecationWarning)
    print('debug: module 1 loaded ok', file=sys.stderr)
    assert 1 != 4
