import unittest
from roman import to_roman

class RomanTest(unittest.TestCase):
    def test_table(self):
        for n, want in [(1, 'I'), (3, 'III'), (4, 'IV'), (9, 'IX'), (58, 'LVIII'), (2024, 'MMXXIV')]:
            with self.subTest(n=n):
                self.assertEqual(to_roman(n), want)
