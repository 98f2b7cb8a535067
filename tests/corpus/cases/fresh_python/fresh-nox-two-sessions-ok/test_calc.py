def test_add():
    assert 1 + 1 == 2

def test_str():
    assert 'a' * 2 == 'aa'
