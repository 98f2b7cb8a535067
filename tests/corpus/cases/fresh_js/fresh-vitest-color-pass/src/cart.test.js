import { total } from './cart.js';
test('sums price * qty', () => { expect(total([{ price: 2, qty: 3 }, { price: 1, qty: 1 }])).toBe(7); });
test('empty cart', () => { expect(total([])).toBe(0); });
