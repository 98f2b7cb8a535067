class OutOfStock(Exception):
    pass

STOCK = {"apple": 3, "pear": 0}

def reserve(item, qty):
    have = STOCK.get(item, 0)
    if qty > have:
        raise OutOfStock(f"{item}: wanted {qty}, have {have}")
    STOCK[item] = have - qty
    return STOCK[item]

def price(items):
    table = {"apple": 0.5, "pear": 0.75}
    return sum(table[i] * q for i, q in items)
