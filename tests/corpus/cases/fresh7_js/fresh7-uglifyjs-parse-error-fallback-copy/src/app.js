interface Item { price: number; qty: number }
function total(items: Item[]): number {
  return items.reduce((s, i) => s + i.price * i.qty, 0);
}
window.total = total;
