def route(a, b, c, d):
    if a:
        if b:
            for i in range(3):
                if c and i:
                    return 1
                elif d or i > 1:
                    return 2
        elif c:
            return 3
    elif d:
        while b:
            if a or c:
                break
    return 0
