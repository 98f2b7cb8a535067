import unittest
def avg(xs):
    return sum(xs) / len(xs)
class T(unittest.TestCase):
    def test_avg(self):
        self.assertEqual(avg([2, 4]), 3)
    def test_empty(self):
        self.assertEqual(avg([]), 0)
