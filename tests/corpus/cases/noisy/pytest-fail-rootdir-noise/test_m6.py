import sys, warnings
def test_6():
    warnings.warn('legacy api 6', DeprecationWarning)
    print('debug: module 6 loaded ok', file=sys.stderr)
    assert 6 != 4
