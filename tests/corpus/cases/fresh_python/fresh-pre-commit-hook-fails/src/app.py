def run():
    print('debug')
