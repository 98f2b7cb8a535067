const { EventEmitter } = require('node:events');
const bus = new EventEmitter();
let seen = 0;
for (let i = 0; i < 12; i++) bus.on('order', () => { seen++; });
bus.emit('order', { id: 1 });
console.log(`listeners notified: ${seen}`);
