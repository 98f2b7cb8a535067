import * as util from './util.js';
console.log(util.formatPrice(1999), util.formatDate);
