def test_sum():
    assert sum([0.1] * 3) == 0.3
