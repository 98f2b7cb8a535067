from __future__ import annotations

from inventory.models import Item
from inventory.pricing import BULK_THRESHOLD, line_total, order_total

PEN = Item(sku="PEN-1", name="Pen", unit_price=2.0)


def test_line_total_without_discount() -> None:
    assert line_total(PEN, 3) == 6.0


def test_bulk_discount_starts_at_threshold() -> None:
    assert line_total(PEN, BULK_THRESHOLD) == 18.0


def test_bulk_discount_above_threshold() -> None:
    assert line_total(PEN, 20) == 36.0


def test_order_total_sums_lines() -> None:
    assert order_total([(PEN, 1), (PEN, 2)]) == 6.0
