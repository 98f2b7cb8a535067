const fs = require('fs');
const need = fs.readFileSync('.env.example', 'utf8').split('\n').filter(Boolean).map((l) => l.split('=')[0]);
const env = { PORT: '3000' };
const missing = need.filter((k) => !(k in env));
for (const k of missing) console.error(`✖ missing required env var ${k}`);
if (missing.length) { console.error(`${missing.length} required variables missing`); process.exit(1); }
console.log('env ok');
