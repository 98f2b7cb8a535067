import sys, pytest

def test_path_join():
    assert "/".join(["a", "b"]) == "a/b"

@pytest.mark.skipif(sys.platform != "win32", reason="windows only: registry access")
def test_registry():
    pass

@pytest.mark.skipif(sys.platform != "darwin", reason="macOS only: keychain")
def test_keychain():
    pass
