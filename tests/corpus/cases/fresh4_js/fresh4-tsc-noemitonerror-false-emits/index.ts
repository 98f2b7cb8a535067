function area(r: number): number { return Math.PI * r * r; }
console.log(area('2' as unknown as string));
