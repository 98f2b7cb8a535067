import pytest, sqlite3

@pytest.fixture
def db():
    conn = sqlite3.connect("file:missing.db?mode=ro", uri=True)
    yield conn
    conn.close()

def test_schema(db):
    assert db.execute("select 1").fetchone() == (1,)
