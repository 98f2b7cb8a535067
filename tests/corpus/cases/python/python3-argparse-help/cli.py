import argparse
p = argparse.ArgumentParser(description="resize images")
p.add_argument("--width", type=int, required=True)
p.add_argument("--strict", action="store_true", help="treat errors as fatal")
p.parse_args()
