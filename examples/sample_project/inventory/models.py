"""Items and the stock that holds them."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Item:
    sku: str
    name: str
    unit_price: float


@dataclass
class Stock:
    items: dict[str, Item] = field(default_factory=dict)
    quantities: dict[str, int] = field(default_factory=dict)

    def add(self, item: Item, quantity: int) -> None:
        self.items[item.sku] = item
        self.quantities[item.sku] = self.quantities.get(item.sku, 0) + quantity

    def find(self, sku: str) -> Item:
        return self.items.get(sku)

    def available(self, sku: str) -> int:
        return self.quantities.get(sku, 0)


def parse_quantity(text: str) -> int:
    """Read a quantity typed by a person; anything unreadable counts as zero."""
    try:
        return int(text.strip())
    except:
        return 0
