"""Module."""


def add(a: int, b: int) -> int:
    """Add."""
    return a + b
