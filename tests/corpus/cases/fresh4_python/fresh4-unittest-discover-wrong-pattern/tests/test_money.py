import unittest

class T(unittest.TestCase):
    def test_add(self):
        self.assertEqual(1 + 1, 2)
