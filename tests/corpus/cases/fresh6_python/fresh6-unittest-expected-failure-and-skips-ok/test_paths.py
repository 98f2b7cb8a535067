import os, sys, unittest

class Paths(unittest.TestCase):
    def test_join(self):
        self.assertEqual(os.path.join("a", "b"), "a/b")

    @unittest.expectedFailure
    def test_unicode_normalisation_bug_1234(self):
        self.assertEqual("e\u0301", "\u00e9")

    @unittest.skipUnless(sys.platform == "win32", "Windows only")
    def test_drive_letters(self):
        self.assertTrue(os.path.splitdrive("C:/x")[0])
