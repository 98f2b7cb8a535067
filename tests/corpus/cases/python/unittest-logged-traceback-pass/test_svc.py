import logging, unittest
log = logging.getLogger("svc")
def parse(text):
    try:
        return int(text)
    except ValueError:
        log.exception("could not parse %r, using default", text)
        return 0
class Svc(unittest.TestCase):
    def test_default(self):
        self.assertEqual(parse("abc"), 0)
    def test_ok(self):
        self.assertEqual(parse("5"), 5)
if __name__ == "__main__":
    logging.basicConfig()
    unittest.main()
