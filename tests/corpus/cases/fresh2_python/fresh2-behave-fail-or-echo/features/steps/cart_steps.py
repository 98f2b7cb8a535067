from behave import given, when, then

@given("an empty cart")
def empty(ctx):
    ctx.cart = []

@when("I add {n:d} apples")
def add_apples(ctx, n):
    ctx.cart += ["apple"] * n

@then("the cart holds {n:d} items")
def holds(ctx, n):
    assert len(ctx.cart) == n, f"expected {n} items, got {len(ctx.cart)}"
