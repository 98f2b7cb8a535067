import json

def test_parse():
    assert json.loads('{"a": 1}') == {'a': 2}
