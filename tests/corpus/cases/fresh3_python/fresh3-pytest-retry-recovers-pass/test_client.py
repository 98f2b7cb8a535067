import sys, traceback

class Flaky:
    def __init__(self):
        self.calls = 0
    def get(self):
        self.calls += 1
        if self.calls < 3:
            raise ConnectionResetError(104, "Connection reset by peer")
        return 200

def fetch(client, attempts=5):
    for n in range(1, attempts + 1):
        try:
            return client.get()
        except ConnectionResetError:
            print(f"attempt {n} failed, retrying", file=sys.stderr)
            traceback.print_exc()
    raise RuntimeError("gave up")

def test_fetch_retries():
    assert fetch(Flaky()) == 200
