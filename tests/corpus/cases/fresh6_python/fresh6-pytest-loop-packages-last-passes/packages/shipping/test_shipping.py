def test_zones():
    assert sorted({'eu', 'us'}) == ['eu', 'us']
