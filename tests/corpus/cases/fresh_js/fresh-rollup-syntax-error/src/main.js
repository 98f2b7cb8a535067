import { add } from './math.js';
console.log(add(2, 3);
