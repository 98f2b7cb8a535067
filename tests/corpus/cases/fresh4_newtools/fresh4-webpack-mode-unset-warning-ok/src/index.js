import { add } from './math.js';
console.log(add(1, 2));
