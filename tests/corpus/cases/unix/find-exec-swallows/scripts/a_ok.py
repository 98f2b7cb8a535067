print('a ok')
