const cfg = require('./cfg.json');
console.log(`service ${cfg.name} on port ${cfg.port}`);
