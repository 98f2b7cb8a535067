import { total } from './a';
console.log(total([1, 2]));
