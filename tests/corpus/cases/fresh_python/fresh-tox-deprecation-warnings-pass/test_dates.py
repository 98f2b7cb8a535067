import datetime, unittest

class T(unittest.TestCase):
    def test_utcnow(self):
        now = datetime.datetime.utcnow()
        self.assertGreater(now.year, 2000)

    def test_locale(self):
        import locale
        self.assertEqual(len(locale.getdefaultlocale()), 2)

    def test_fromtimestamp(self):
        self.assertEqual(datetime.datetime.utcfromtimestamp(0).year, 1970)
