import sys
print("\033[1;31mERROR\033[0m deploy aborted: image tag not found", file=sys.stderr)
sys.exit(1)
