import unittest

def first_line(p):
    return open(p).readline()

class T(unittest.TestCase):
    def test_first_line(self):
        open('x.txt', 'w').write('hello\n')
        self.assertEqual(first_line('x.txt'), 'hello\n')
