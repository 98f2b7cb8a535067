const fs = require('fs');
const defaults = { port: 3000, host: '127.0.0.1' };
let local = {};
try { local = JSON.parse(fs.readFileSync('config.local.json', 'utf8')); }
catch (e) { console.warn(`warn: no local config (${e.code}: ${e.message}), using defaults`); }
console.log('config:', JSON.stringify({ ...defaults, ...local }));
