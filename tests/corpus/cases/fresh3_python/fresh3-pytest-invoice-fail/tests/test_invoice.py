import pytest
from invoice import total, parse_line

def test_total_plain():
    assert total([(2, 1.5), (1, 3.0)]) == 6.0

def test_total_discount():
    assert total([(4, 2.5)], discount=0.1) == 9.5

def test_parse_line():
    assert parse_line("3x2.50") == (3, 2.5)

def test_parse_line_rejects_garbage():
    with pytest.raises(ValueError):
        parse_line("three")
