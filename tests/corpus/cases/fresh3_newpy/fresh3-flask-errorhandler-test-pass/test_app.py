from app import app

def test_orders_error_returns_json():
    app.config["PROPAGATE_EXCEPTIONS"] = False
    r = app.test_client().get("/orders")
    assert r.status_code == 500
    assert r.get_json() == {"error": "internal error"}
