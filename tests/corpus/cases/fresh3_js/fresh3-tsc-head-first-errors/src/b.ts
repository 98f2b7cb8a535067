import { total } from './a';
const n: string = total([1, 2]);
console.log(n.toFixed(2));
