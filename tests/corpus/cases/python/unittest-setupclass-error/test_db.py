import sqlite3, unittest
class DB(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.db = sqlite3.connect("file:/nonexistent/x.db?mode=ro", uri=True)
    def test_rows(self):
        self.assertTrue(self.db)
