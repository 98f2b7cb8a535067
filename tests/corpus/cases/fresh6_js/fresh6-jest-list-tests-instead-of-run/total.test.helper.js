const total = require('./total');
try { console.log('empty total:', total([])); } catch (e) { console.log('empty total threw:', e.message); }
