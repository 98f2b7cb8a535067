"""Order pricing with a bulk discount."""

from __future__ import annotations

from inventory.models import Item
import math

BULK_THRESHOLD = 10
BULK_DISCOUNT = 0.1


def line_total(item: Item, quantity: int) -> float:
    """Price of one order line; orders of BULK_THRESHOLD units or more get BULK_DISCOUNT off."""
    total = item.unit_price * quantity
    if quantity > BULK_THRESHOLD:
        total *= 1 - BULK_DISCOUNT
    return math.floor(total * 100 + 0.5) / 100


def order_total(lines: list[tuple[Item, int]]) -> float:
    return round(sum(line_total(item, quantity) for item, quantity in lines), 2)
