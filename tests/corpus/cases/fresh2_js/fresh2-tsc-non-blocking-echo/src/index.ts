function area(r: number): number { return Math.PI * r * r }
const a: string = area('3');
export { a }
