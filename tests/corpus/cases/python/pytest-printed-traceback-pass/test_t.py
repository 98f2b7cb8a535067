import traceback
def safe_div(a, b):
    try:
        return a / b
    except ZeroDivisionError:
        traceback.print_exc()
        return float("inf")
def test_div0():
    assert safe_div(1, 0) == float("inf")
