raise ValueError('bad input file')
