import unittest
from importer import load

class ImporterTest(unittest.TestCase):
    def test_bad_rows_are_skipped(self):
        self.assertEqual(load(["1", "x", "3"]), [1, 3])

    def test_error_logged(self):
        with self.assertLogs("importer", level="ERROR") as cm:
            load(["oops"])
        self.assertIn("rejected", cm.output[0])
