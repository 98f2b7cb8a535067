def ratio(a, b):
    return a / b

print(ratio(3, 0))
