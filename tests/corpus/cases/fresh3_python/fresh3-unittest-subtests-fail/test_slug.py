import re, unittest

def slugify(s):
    return re.sub(r"[^a-z0-9]+", "-", s.lower()).strip("-")

class SlugTest(unittest.TestCase):
    def test_table(self):
        rows = [("Hello World", "hello-world"), ("Crème brûlée", "creme-brulee"),
                ("  spaces  ", "spaces"), ("Ünïcode", "unicode")]
        for text, want in rows:
            with self.subTest(text=text):
                self.assertEqual(slugify(text), want)

if __name__ == "__main__":
    unittest.main()
