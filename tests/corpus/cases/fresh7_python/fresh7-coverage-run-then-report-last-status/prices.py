def with_vat(net, rate=0.2):
    return round(net * (1 + rate), 2)

def discount(price, pct):
    return price - price * pct / 100
