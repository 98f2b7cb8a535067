data = open('src.txt').read()
open('copy.txt', 'w').write(data)
import gc; gc.collect()
