export const greet = (n: string): string => `hi ${n}`;
