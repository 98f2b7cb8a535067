import unittest
suite = unittest.defaultTestLoader.loadTestsFromNames(["tests_api", "tests_util"])
result = unittest.TextTestRunner(verbosity=2).run(suite)
print(f"ran {result.testsRun} tests")
