def mean(xs):
    return sum(xs) / len(xs)

def test_mean():
    assert mean([1, 2, 3]) == 2

def test_mean_empty():
    assert mean([]) == 0
