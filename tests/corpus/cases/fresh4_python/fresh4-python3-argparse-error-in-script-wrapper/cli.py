import argparse
p = argparse.ArgumentParser(prog='release')
p.add_argument('--tag', required=True)
a = p.parse_args()
print('released', a.tag)
