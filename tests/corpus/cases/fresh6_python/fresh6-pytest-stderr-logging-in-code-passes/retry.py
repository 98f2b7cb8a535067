import sys

def call_with_retry(fn, attempts=3):
    for i in range(1, attempts + 1):
        try:
            return fn()
        except ConnectionError as exc:
            print(f"ERROR: attempt {i}/{attempts} failed: {exc}", file=sys.stderr)
    raise ConnectionError("all attempts failed")
