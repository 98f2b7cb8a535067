import unittest
class Calc(unittest.TestCase):
    def test_add(self):
        self.assertEqual(1 + 1, 2)
    def test_total(self):
        self.assertEqual(sum([1, 2, 3]), 7, "total mismatch")
