def test_a():
    assert 'abc'.upper() == 'ABc'
