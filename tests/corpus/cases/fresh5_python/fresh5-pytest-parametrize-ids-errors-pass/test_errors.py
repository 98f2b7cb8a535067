import pytest
def to_status(exc):
    return {ValueError: 400, PermissionError: 403, ConnectionResetError: 502}.get(type(exc), 500)

@pytest.mark.parametrize("exc,code", [
    (ValueError("bad input"), 400),
    (PermissionError("denied"), 403),
    (ConnectionResetError("reset by peer"), 502),
    (RuntimeError("boom"), 500),
], ids=["ValueError", "PermissionError", "ConnectionResetError", "RuntimeError-fallback"])
def test_to_status(exc, code):
    assert to_status(exc) == code
