"""A tiny stock and pricing library."""

from inventory.models import Item, Stock
from inventory.pricing import line_total, order_total

__all__ = ["Item", "Stock", "line_total", "order_total"]
