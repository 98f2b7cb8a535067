def occurence(xs, x):
    # teh number of times x occurs
    return xs.count(x)
