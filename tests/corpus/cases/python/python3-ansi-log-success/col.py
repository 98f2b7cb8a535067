import sys
G, Y, R = "\033[32m", "\033[33m", "\033[0m"
print(f"{G}INFO{R} starting sync", file=sys.stderr)
print(f"{Y}WARN{R} 2 files skipped (unchanged)", file=sys.stderr)
print(f"{G}INFO{R} sync complete: 14 files", file=sys.stderr)
