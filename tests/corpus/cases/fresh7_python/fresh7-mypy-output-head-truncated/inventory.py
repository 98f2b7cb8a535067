from dataclasses import dataclass

@dataclass
class Item:
    sku: str
    qty: int

def total(items):
    return sum(i.qty for i in items)

def find(items: list[Item], sku: str) -> Item:
    for i in items:
        if i.sku == sku:
            return i

def restock(item: Item, n: str) -> None:
    item.qty += n

count: int = total([Item("a", 1)])
label: str = count
