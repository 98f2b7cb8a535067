const fs = require('fs');
fs.rmdirSync('build', { recursive: true });
console.log('removed build/');
