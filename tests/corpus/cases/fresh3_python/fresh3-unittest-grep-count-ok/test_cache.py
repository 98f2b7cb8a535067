import unittest

class LRU:
    def __init__(self, n): self.n, self.d = n, {}
    def put(self, k, v):
        self.d[k] = v
        if len(self.d) > self.n:
            self.d.pop(next(iter(self.d)))
    def get(self, k): return self.d.get(k)

class CacheTest(unittest.TestCase):
    def test_put_get(self):
        c = LRU(2); c.put("a", 1); self.assertEqual(c.get("a"), 1)
    def test_eviction(self):
        c = LRU(2); c.put("a", 1); c.put("b", 2); c.get("a"); c.put("c", 3)
        self.assertEqual(c.get("a"), 1, "recently used key was evicted")
    def test_capacity(self):
        c = LRU(1); c.put("a", 1); c.put("b", 2); self.assertIsNone(c.get("a"))
