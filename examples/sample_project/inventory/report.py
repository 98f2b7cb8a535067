"""Plain-text stock report."""

from __future__ import annotations

import os

from inventory.models import Stock


def stock_report(stock: Stock) -> str:
    lines = [f"{sku}: {stock.available(sku)}" for sku in sorted(stock.items)]
    return "\n".join(lines)
