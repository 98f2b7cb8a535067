from cli import main
def test_bad_port():
    assert main(["--port", "http"]) == 2
def test_unknown_option():
    assert main(["--bogus"]) == 2
def test_ok():
    assert main(["--port", "80"]) == 0
