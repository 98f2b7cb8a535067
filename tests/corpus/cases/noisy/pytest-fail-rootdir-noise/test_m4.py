import sys, warnings
def test_4():
    warnings.warn('legacy api 4', DeprecationWarning)
    print('debug: module 4 loaded ok', file=sys.stderr)
    assert 4 != 4
