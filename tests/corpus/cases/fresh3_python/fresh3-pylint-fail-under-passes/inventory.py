"""Inventory helpers."""
import os

STOCK = {"apple": 3, "pear": 0}


def in_stock(item):
    """Return True when the item has stock."""
    return STOCK.get(item, 0) > 0


def restock(item, qty):
    """Add qty units of item."""
    STOCK[item] = STOCK.get(item, 0) + qty
    return STOCK[item]


def report():
    """Lines of the stock report."""
    lines = []
    for name, qty in sorted(STOCK.items()):
        lines.append(f"{name}: {qty}")
    return lines


def remove(item):
    """Remove an item."""
    try:
        del STOCK[item]
    except Exception:
        pass
