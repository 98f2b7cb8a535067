const sales: Record<string, number> = { eu: 120, us: 95 };
const total = Object.values(sales).reduce((a, b) => a + b, 0);
console.log(`total ${total}`);
