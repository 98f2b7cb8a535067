function subtotal(items) {
  return items.reduce((s, i) => s + i.price * i.qty, 0);
}
function applyCoupon(total, coupon) {
  if (!coupon) return total;
  if (coupon.kind === "percent") return total * (1 - coupon.value / 100);
  if (coupon.kind === "fixed") return total - coupon.value;
  throw new TypeError(`unknown coupon kind: ${coupon.kind}`);
}
module.exports = { subtotal, applyCoupon };
