from dates import parse_legacy

def test_parse():
    assert parse_legacy('2024-01-02') == ['2024', '01', '02']
