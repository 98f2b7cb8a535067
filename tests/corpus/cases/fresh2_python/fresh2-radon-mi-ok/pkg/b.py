def g(y):
    return y * 2
