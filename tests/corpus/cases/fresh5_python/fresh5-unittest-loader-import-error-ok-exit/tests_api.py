import unittest
import requests_mock_lib
class T(unittest.TestCase):
    def test_get(self):
        pass
