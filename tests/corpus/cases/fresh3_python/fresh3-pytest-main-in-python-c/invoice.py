def total(lines, discount=0.0):
    subtotal = sum(q * p for q, p in lines)
    return round(subtotal * (1 - discount), 2)

def parse_line(text):
    qty, price = text.split("x")
    return int(qty), float(price)
