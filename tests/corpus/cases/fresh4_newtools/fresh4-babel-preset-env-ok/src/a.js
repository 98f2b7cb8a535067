export const f = (x = 1) => x ** 2;
