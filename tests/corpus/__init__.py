"""The run corpus: real tool runs with their human labels, as data (README.md in this folder).

Test inputs, not project code: ``reader`` loads the case records and the stored runs for the
capture scripts, the evaluator, the tests and the benchmarks.
"""
