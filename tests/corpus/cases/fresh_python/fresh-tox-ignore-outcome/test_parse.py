import unittest

def parse_port(s):
    return int(s.split(":")[1])

class T(unittest.TestCase):
    def test_ok(self):
        self.assertEqual(parse_port("h:80"), 80)

    def test_no_port(self):
        self.assertEqual(parse_port("localhost"), None)
