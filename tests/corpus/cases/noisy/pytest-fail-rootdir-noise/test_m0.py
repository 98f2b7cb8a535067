import sys, warnings
def test_0():
    warnings.warn('legacy api 0', DeprecationWarning)
    print('debug: module 0 loaded ok', file=sys.stderr)
    assert 0 != 4
