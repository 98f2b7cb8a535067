import ctypes, unittest

class NativeTest(unittest.TestCase):
    def test_read_header(self):
        self.assertEqual(ctypes.string_at(1, 4), b"HDR1")
