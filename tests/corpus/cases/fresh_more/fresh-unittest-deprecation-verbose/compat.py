import warnings

def old_parse(s):
    warnings.warn('old_parse() is deprecated; use parse()', DeprecationWarning, stacklevel=2)
    return int(s)
