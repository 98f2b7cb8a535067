export const n: number = 'one';
