from decimal import Decimal
from invoice import total, split

def test_total():
    assert total([(2, 1.5), (1, 4)], 0.2) == Decimal("8.40")

def test_split_even():
    assert split(Decimal("9.00"), 3) == [Decimal("3.00")] * 3

def test_split_remainder_is_kept():
    parts = split(Decimal("10.00"), 3)
    assert sum(parts) == Decimal("10.00"), parts
