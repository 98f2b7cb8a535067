"""Module."""

def a():
    """A."""

def b():
    pass

def c():
    pass

def d():
    pass
