import logging
log = logging.getLogger("pricing")

def net(gross, vat=0.2):
    if gross < 0:
        log.error("negative gross amount %s rejected", gross)
        raise ValueError(f"gross must be >= 0, got {gross}")
    return round(gross / (1 + vat), 2)

def discount(price, pct):
    return round(price * (1 - pct / 100), 2)
