import unittest

class KnownIssues(unittest.TestCase):
    @unittest.expectedFailure
    def test_timezone_bug_1234(self):
        self.assertEqual("UTC+1", "UTC")

    @unittest.skip("flaky on CI: network")
    def test_remote_fetch(self):
        pass

    def test_error_codes_table(self):
        self.assertEqual({"E001": "not found"}["E001"], "not found")
