import unittest
class Calc(unittest.TestCase):
    def test_add(self):
        self.assertEqual(1 + 1, 2)
    def test_div(self):
        self.assertAlmostEqual(1 / 3, 0.3333, places=3)
