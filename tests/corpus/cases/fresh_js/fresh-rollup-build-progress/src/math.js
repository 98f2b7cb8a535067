export const add = (a, b) => a + b;
export const unused = () => 0;
