import sys
def parse(text):
    out = []
    for n, line in enumerate(text.splitlines(), 1):
        if "=" not in line:
            print(f"ERROR: line {n}: unexpected token {line!r}", file=sys.stderr)
            continue
        k, v = line.split("=", 1)
        out.append((k.strip(), v.strip()))
    return out

def test_skips_bad_lines():
    assert parse("a=1\nb=2\n???\nc = 3") == [("a", "1"), ("b", "2"), ("c", "3")]

def test_empty():
    assert parse("") == []
