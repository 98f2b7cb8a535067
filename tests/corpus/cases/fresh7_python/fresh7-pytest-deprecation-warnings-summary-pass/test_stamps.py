import datetime
import pytest
from stamps import legacy_format, now_utc

@pytest.mark.parametrize("h", range(4))
def test_format(h):
    assert legacy_format(datetime.datetime(2024, 1, 1, h)) == f"2024-01-01 {h:02d}:00"

def test_now():
    assert now_utc().year >= 2024
