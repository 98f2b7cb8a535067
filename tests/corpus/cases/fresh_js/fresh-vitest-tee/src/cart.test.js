import { total } from './cart.js';
test('sums price * qty', () => { expect(total([{ price: 2, qty: 3 }])).toBe(6); });
test('applies 10% discount over 100', () => { expect(total([{ price: 60, qty: 2 }])).toBe(108); });
