const fs = require('fs');
const out = fs.createWriteStream('/nonexistent/report.csv');
out.on('error', (e) => console.error('write error:', e.message));
out.write('a,b\n');
