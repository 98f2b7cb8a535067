export const total = (xs: number[]): string => xs.reduce((a, b) => a + b, 0);
