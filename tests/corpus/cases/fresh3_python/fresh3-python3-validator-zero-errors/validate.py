import json, sys
errors = warnings = 0
for path in sys.argv[1:]:
    cfg = json.load(open(path))
    if "colour" in cfg:
        warnings += 1
        print(f"WARNING {path}: key 'colour' is deprecated, use 'color'", file=sys.stderr)
    for key in ("name", "port"):
        if key not in cfg:
            errors += 1
            print(f"ERROR {path}: missing key {key!r}", file=sys.stderr)
print(f"checked {len(sys.argv) - 1} files: errors: {errors}, warnings: {warnings}", file=sys.stderr)
sys.exit(1 if errors else 0)
