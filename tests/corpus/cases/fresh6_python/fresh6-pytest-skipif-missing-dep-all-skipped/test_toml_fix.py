import pytest

def test_roundtrip():
    tomlkit = pytest.importorskip("tomlkit_not_installed")
    assert tomlkit.dumps(tomlkit.parse("a = 1")) == "a = 1"

def test_comments_kept():
    tomlkit = pytest.importorskip("tomlkit_not_installed")
    assert "# c" in tomlkit.dumps(tomlkit.parse("# c\na = 1"))
