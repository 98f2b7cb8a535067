import unittest
from shipping import cost

class CostTest(unittest.TestCase):
    def test_eu(self):
        self.assertEqual(cost("EU", 2), 9.0)

    def test_unknown_region_falls_back(self):
        self.assertEqual(cost("MARS", 1), 10.0)
