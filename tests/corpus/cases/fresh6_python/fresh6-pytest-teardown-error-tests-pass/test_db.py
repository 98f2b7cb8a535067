import pytest

@pytest.fixture(scope="module")
def db():
    conn = {"rows": []}
    yield conn
    raise PermissionError("cannot remove /var/lib/app/test.sqlite: read-only file system")

def test_insert(db):
    db["rows"].append(1)
    assert db["rows"] == [1]

def test_count(db):
    assert len(db["rows"]) == 1
