import sys, warnings
def test_2():
    warnings.warn('legacy api 2', DeprecationWarning)
    print('debug: module 2 loaded ok', file=sys.stderr)
    assert 2 != 4
