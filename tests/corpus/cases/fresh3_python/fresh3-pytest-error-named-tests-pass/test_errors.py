import pytest
from errors import charge, PaymentError

def test_error_is_raised_for_negative_amount():
    with pytest.raises(PaymentError):
        charge(-5)

def test_failure_message_mentions_amount():
    with pytest.raises(PaymentError, match="invalid amount 0"):
        charge(0)

def test_exception_not_raised_for_valid_amount():
    assert charge(10)["status"] == "charged"

def test_fatal_error_logged(caplog):
    with pytest.raises(PaymentError):
        charge(-1)
    assert "charge rejected" in caplog.text
