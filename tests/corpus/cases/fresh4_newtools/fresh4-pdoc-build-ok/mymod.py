"""Utilities."""

def add(a: int, b: int) -> int:
    """Add two ints."""
    return a + b
