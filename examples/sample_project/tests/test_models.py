from __future__ import annotations

from inventory.models import Item, Stock, parse_quantity
from inventory.report import stock_report


def test_stock_adds_up() -> None:
    stock = Stock()
    stock.add(Item("A", "Apple", 0.5), 3)
    stock.add(Item("A", "Apple", 0.5), 2)
    assert stock.available("A") == 5
    assert stock.find("A").name == "Apple"


def test_parse_quantity() -> None:
    assert parse_quantity(" 7 ") == 7
    assert parse_quantity("seven") == 0


def test_stock_report_is_sorted() -> None:
    stock = Stock()
    stock.add(Item("B", "Banana", 0.2), 1)
    stock.add(Item("A", "Apple", 0.5), 2)
    assert stock_report(stock) == "A: 2\nB: 1"
