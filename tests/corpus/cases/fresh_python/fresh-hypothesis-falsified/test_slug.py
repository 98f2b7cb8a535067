from hypothesis import given, strategies as st, settings
from slug import slugify

@settings(database=None, derandomize=True)
@given(st.text())
def test_not_longer(text):
    assert len(slugify(text)) <= len(text)
