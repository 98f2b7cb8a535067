const { EventEmitter } = require('events');
const bus = new EventEmitter();
let n = 0;
for (let i = 0; i < 11; i++) bus.on('job', () => n++);
bus.emit('job');
setImmediate(() => console.log(`delivered ${n} handlers`));
