import warnings

def parse_legacy(text):
    warnings.warn("parse_legacy() is deprecated, use parse()", DeprecationWarning, stacklevel=2)
    return text.split("-")
