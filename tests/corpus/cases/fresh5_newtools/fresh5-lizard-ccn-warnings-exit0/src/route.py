def route(m, p, a, b):
    if m == 'GET':
        if p == '/':
            return 1
        elif p == '/a':
            return 2
    elif m == 'POST':
        if a and b:
            return 3
        elif a or b:
            return 4
    return 0
