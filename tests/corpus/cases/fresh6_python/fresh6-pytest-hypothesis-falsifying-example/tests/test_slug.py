from hypothesis import given, settings, strategies as st
from slug import slugify

def test_basic():
    assert slugify("Hello, World!") == "hello-world"

@settings(max_examples=300, deadline=None, database=None)
@given(st.text())
def test_slug_never_empty(s):
    assert slugify(s) != ""
