import sys
def work(n):
    for i in range(n):
        print(f"DEBUG worker: step {i} ok (retry budget 3)", file=sys.stderr)
    return n
def test_work(): assert work(40) == 40
def test_total(): assert work(5) == 6
