def test_lists():
    assert [1, 2, 3] == [1, 2, 4]
