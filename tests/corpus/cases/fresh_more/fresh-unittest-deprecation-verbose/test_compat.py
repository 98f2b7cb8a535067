import unittest
from compat import old_parse

class T(unittest.TestCase):
    def test_parse(self):
        self.assertEqual(old_parse('7'), 7)

    def test_parse_neg(self):
        self.assertEqual(old_parse('-2'), -2)
