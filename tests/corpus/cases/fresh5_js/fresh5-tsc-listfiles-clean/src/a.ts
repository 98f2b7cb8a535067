export const a = (x: number): number => x + 1;
