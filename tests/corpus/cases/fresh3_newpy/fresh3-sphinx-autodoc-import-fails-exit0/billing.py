import stripe_sdk

def charge(amount):
    """Charge a card."""
    return stripe_sdk.charge(amount)
