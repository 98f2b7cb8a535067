import logging

log = logging.getLogger("payments")

class Declined(Exception):
    pass

def charge(card, amount):
    log.info("charging %s cents to card ending %s", amount, card[-4:])
    try:
        if card.startswith("4000"):
            raise Declined("card_declined: insufficient_funds")
        return {"status": "paid", "amount": amount}
    except Declined:
        log.exception("charge failed for card ending %s", card[-4:])
        return {"status": "declined", "amount": 0}
