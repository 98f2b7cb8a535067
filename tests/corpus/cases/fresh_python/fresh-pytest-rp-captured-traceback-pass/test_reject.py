import logging, traceback, sys
import pytest
from pricing import net

def test_negative_rejected():
    with pytest.raises(ValueError):
        net(-5)

def test_reject_is_reported():
    try:
        net(-1)
    except ValueError:
        traceback.print_exc()
    else:
        raise AssertionError("negative amount accepted")

def test_positive():
    assert net(120) == 100.0
