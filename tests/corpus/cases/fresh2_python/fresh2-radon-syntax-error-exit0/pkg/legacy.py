def g(x):
    print 'value', x
    return x
