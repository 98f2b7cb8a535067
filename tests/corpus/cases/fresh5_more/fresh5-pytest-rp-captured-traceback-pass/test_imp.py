import sys, traceback
def load(rows):
    out = []
    for r in rows:
        try:
            out.append(int(r))
        except ValueError:
            traceback.print_exc()
    return out
def test_skips_corrupt():
    assert load(["1", "x", "3"]) == [1, 3]
def test_empty():
    assert load([]) == []
