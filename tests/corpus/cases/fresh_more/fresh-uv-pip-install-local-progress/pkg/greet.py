msg = 'greet installed'
