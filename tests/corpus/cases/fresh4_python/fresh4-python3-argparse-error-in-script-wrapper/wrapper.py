import os
os.system('python3 cli.py --tga v1.2.0')
print('deploy step finished')
