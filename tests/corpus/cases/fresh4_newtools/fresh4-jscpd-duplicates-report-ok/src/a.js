function total(items) {
  let sum = 0;
  for (const it of items) {
    if (it.qty > 0) sum += it.qty * it.price;
  }
  return Math.round(sum * 100) / 100;
}
module.exports = total;
