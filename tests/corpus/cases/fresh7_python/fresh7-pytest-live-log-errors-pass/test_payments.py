from payments import charge

def test_paid():
    assert charge("4242424242424242", 500)["status"] == "paid"

def test_declined():
    assert charge("4000000000000002", 500) == {"status": "declined", "amount": 0}

def test_zero():
    assert charge("4242424242424242", 0)["amount"] == 0
