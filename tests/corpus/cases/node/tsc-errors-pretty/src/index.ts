export function add(a: number, b: number): number {
  return a + b;
}
const n: number = add(1, '2');
let s: string = n;
