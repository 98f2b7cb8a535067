import sys
for n, raw in enumerate(open(sys.argv[1], "rb"), 1):
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        sys.stderr.buffer.write(b"line %d: cannot decode: " % n + raw)
        sys.stderr.write(f"parse error: {exc}\n")
        sys.exit(2)
print("parsed")
