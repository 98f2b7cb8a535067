import pytest
from native import load_plugin

@pytest.mark.parametrize("name", ["csv", "json", "xml", "broken", "yaml", "toml"])
def test_load(name):
    assert load_plugin(name) == name.upper()
