import re, unittest
def slug(s):
    return re.sub(r"[^a-z0-9]+", "-", s.lower()).strip("-")
class T(unittest.TestCase):
    def test_slug(self):
        for raw, want in [("Hello World", "hello-world"), ("Ça va", "ca-va"), ("naïve café", "naive-cafe"), ("a--b", "a-b")]:
            with self.subTest(raw=raw):
                self.assertEqual(slug(raw), want)
if __name__ == "__main__":
    unittest.main()
