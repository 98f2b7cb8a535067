import sys
bad = 0
for raw in open(sys.argv[1], "rb"):
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError:
        bad += 1
        sys.stderr.buffer.write(b"rejected row: " + raw)
if bad:
    print(f"{bad} rows are not UTF-8; import aborted", file=sys.stderr)
    sys.exit(1)
