import argparse
p = argparse.ArgumentParser()
p.add_argument('--width', type=int, required=True)
p.parse_args()
