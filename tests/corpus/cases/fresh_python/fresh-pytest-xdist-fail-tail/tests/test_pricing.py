import pytest
from pricing import net, discount

@pytest.mark.parametrize("gross", range(0, 400, 10))
def test_net_not_above_gross(gross):
    assert net(gross) <= gross

def test_discount_ten_percent():
    assert discount(100, 10) == 90

def test_discount_rounding():
    assert discount(80, 25) == 55.0
