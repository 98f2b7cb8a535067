import unittest

class Cart:
    def __init__(self):
        self.items = {}
    def add(self, sku, qty=1):
        self.items[sku] = qty
    def count(self):
        return sum(self.items.values())

class CartTest(unittest.TestCase):
    def test_add_twice_accumulates(self):
        c = Cart(); c.add("a"); c.add("a")
        self.assertEqual(c.count(), 2)
    def test_empty(self):
        self.assertEqual(Cart().count(), 0)

if __name__ == "__main__":
    unittest.main(exit=False)
    print("tests done")
