import unittest

class Bug(unittest.TestCase):
    @unittest.expectedFailure
    def test_known_rounding_bug(self):
        self.assertEqual(round(2.675, 2), round(2.675, 2))
