import datetime, warnings

def legacy_format(ts):
    warnings.warn("legacy_format() is deprecated, use isoformat()", DeprecationWarning, stacklevel=2)
    return ts.strftime("%Y-%m-%d %H:%M")

def now_utc():
    return datetime.datetime.utcnow()
