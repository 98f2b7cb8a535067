import sys
print('ERROR: could not initialise git repository: not a git repository', file=sys.stderr)
sys.exit(1)
