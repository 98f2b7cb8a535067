export const greet = (n) => `hello ${n}`;
