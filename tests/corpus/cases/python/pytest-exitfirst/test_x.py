def test_0():
    assert 0 != 2
def test_1():
    assert 1 != 2
def test_2():
    assert 2 != 2
def test_3():
    assert 3 != 2
def test_4():
    assert 4 != 2
