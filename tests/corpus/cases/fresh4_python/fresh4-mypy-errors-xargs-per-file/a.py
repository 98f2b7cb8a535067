def n() -> int:
    return 'one'
