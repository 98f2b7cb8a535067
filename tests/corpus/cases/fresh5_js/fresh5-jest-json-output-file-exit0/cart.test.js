const { subtotal, applyCoupon } = require("./cart");
test("subtotal", () => expect(subtotal([{ price: 2, qty: 3 }])).toBe(6));
test("percent coupon", () => expect(applyCoupon(100, { kind: "percent", value: 10 })).toBe(90));
test("fixed coupon never goes negative", () => expect(applyCoupon(5, { kind: "fixed", value: 10 })).toBe(0));
