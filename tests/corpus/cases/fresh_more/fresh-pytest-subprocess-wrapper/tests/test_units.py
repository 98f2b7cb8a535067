def to_km(m):
    return m // 1000

def test_to_km():
    assert to_km(1500) == 1.5
