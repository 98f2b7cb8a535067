from hypothesis import given, strategies as st, settings
from slug import slugify

@settings(database=None, derandomize=True, max_examples=60)
@given(st.text(alphabet="!? -_", max_size=6))
def test_always_some_slug(text):
    assert slugify(text)

@settings(database=None, derandomize=True)
@given(st.from_regex(r"[a-z]{1,10}", fullmatch=True))
def test_lowercase_identity(text):
    assert slugify(text) == text
