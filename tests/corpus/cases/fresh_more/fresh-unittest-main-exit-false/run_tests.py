import unittest

def split_name(full):
    first, last = full.split(" ", 1)
    return first, last

class T(unittest.TestCase):
    def test_two_words(self):
        self.assertEqual(split_name("Ada Lovelace"), ("Ada", "Lovelace"))

    def test_single_word(self):
        self.assertEqual(split_name("Plato"), ("Plato", ""))

unittest.main(exit=False, verbosity=2)
print("-- test run complete --")
