export function f(x: string): string { return x ?? 'y'; }
