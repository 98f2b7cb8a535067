import os
def test_a():
    assert True
def test_native_ext_crash():
    os._exit(3)
def test_b():
    assert True
