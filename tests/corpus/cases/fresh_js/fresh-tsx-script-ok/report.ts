interface Order { id: number; total: number; }
const orders: Order[] = [{ id: 1, total: 20 }, { id: 2, total: 22.5 }];
const sum = orders.reduce((s: number, o: Order) => s + o.total, 0);
console.log(`orders=${orders.length} revenue=${sum.toFixed(2)}`);
