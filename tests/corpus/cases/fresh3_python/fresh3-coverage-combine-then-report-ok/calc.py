import sys
op = sys.argv[1]
if op == "add":
    print(2 + 3)
elif op == "div":
    try:
        print(1 / 0)
    except ZeroDivisionError as exc:
        print(f"error handled: {exc}", file=sys.stderr)
