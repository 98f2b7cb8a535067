from price import net, fee

def test_net():
    assert round(net(12), 2) == 10

def test_fee_small():
    assert fee(10) == 1.5
