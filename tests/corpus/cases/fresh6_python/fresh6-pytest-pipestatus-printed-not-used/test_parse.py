from datetime import date

def parse(s):
    d, m, y = s.split("/")
    return date(int(y), int(m), int(d))

def test_parse_eu():
    assert parse("31/12/2024") == date(2024, 12, 31)

def test_parse_iso():
    assert parse("2024-12-31") == date(2024, 12, 31)
