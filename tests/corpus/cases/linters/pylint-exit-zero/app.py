"""M."""


def f():
    """F."""
    return undefined_thing
