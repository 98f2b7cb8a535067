export function price(n: number): string {
  return n * 1.2;
}
