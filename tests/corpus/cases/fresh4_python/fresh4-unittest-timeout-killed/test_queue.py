import unittest, queue

class Q(unittest.TestCase):
    def test_fast(self):
        self.assertTrue(True)
    def test_get_blocks(self):
        queue.Queue().get()
