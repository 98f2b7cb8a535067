import { fmt } from './format';
console.log(fmt(1));
