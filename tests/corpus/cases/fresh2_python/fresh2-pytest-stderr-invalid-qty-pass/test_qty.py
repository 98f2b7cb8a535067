import sys

def parse_qty(text):
    try:
        n = int(text)
    except ValueError:
        print(f"ERROR invalid quantity {text!r}, using 0", file=sys.stderr)
        return 0
    return max(n, 0)

def test_valid():
    assert parse_qty("7") == 7

def test_invalid_is_zero():
    for bad in ["x", "", "1.5"]:
        assert parse_qty(bad) == 0
