class ValidationError(Exception):
    """Raised when a field fails validation."""


def fail(msg: str) -> None:
    raise ValidationError(msg)
