import unittest
class IO(unittest.TestCase):
    def test_read(self):
        with open("fixtures/missing.json") as f:
            f.read()
