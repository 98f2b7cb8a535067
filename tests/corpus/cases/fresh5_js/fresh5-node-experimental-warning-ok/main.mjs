import cfg from './cfg.json' with { type: 'json' };
const b = new Buffer('ok');
console.log(`port=${cfg.port} ${b.toString()}`);
