if (x = 1 === NaN) {}
export {};
