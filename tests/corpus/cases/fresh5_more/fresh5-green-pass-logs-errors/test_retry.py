import sys, unittest
def retry(fn, n=3):
    for i in range(1, n + 1):
        try:
            return fn(i)
        except TimeoutError as e:
            print(f'ERROR attempt {i} failed: TimeoutError: {e}', file=sys.stderr)
    raise RuntimeError('gave up')
def flaky(i):
    if i < 2:
        raise TimeoutError('read timed out')
    return 'ok'
class T(unittest.TestCase):
    def test_retry(self):
        self.assertEqual(retry(flaky), 'ok')
