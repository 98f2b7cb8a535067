x = [1, 2]
reveal_type(x)
