def clean(x):
    return x.strip()
