def g(:
    return 2
