import logging
from behave import given, when, then
logging.basicConfig(level=logging.INFO)
log = logging.getLogger("payments")

class Declined(Exception):
    pass

@given("a card that the bank declines")
def card(ctx):
    ctx.card = "4000000000000002"

@when("I pay {amount:d} EUR")
def pay(ctx, amount):
    try:
        raise Declined(f"card {ctx.card[-4:]} declined: insufficient funds")
    except Declined:
        log.exception("ERROR payment of %s EUR failed", amount)
        ctx.status = "declined"

@then("the payment is marked declined")
def marked(ctx):
    assert ctx.status == "declined"
