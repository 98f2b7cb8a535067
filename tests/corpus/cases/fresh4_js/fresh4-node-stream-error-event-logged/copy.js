const fs = require('fs');
const src = fs.createReadStream('assets/logo.svg');
src.on('error', (e) => console.error('asset copy error:', e.message));
src.pipe(fs.createWriteStream('dist/logo.svg'));
console.log('assets queued');
