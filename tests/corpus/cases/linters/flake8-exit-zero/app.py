def f():
    return undefined_thing
