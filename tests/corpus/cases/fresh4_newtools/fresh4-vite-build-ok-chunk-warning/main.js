import { data } from './big.js';
document.body.textContent = data.length;
