def test_db(database):
    assert database
