def f():
    print('debug')
