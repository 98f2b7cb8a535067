def parse_size(text):
    """Parse a human size.

    >>> parse_size("10K")
    10240
    >>> parse_size("1.5M")
    1572864
    >>> parse_size("2G")
    2147483648
    """
    units = {"K": 1024, "M": 1024 ** 2}
    num, unit = text[:-1], text[-1]
    return int(float(num) * units.get(unit, 1))

if __name__ == "__main__":
    import doctest
    doctest.testmod()
