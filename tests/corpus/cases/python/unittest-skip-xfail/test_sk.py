import unittest
class T(unittest.TestCase):
    @unittest.skip("needs GPU")
    def test_gpu(self):
        pass
    @unittest.expectedFailure
    def test_known_bug(self):
        self.assertEqual(1, 2)
    def test_ok(self):
        self.assertTrue(True)
