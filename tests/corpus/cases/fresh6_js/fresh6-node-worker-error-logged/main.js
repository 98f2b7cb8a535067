const { Worker } = require('worker_threads');
const w = new Worker('./agg.js', { workerData: { rows: [1, 2, null, 4] } });
w.on('message', (m) => require('fs').writeFileSync('report.json', JSON.stringify(m)));
w.on('error', (e) => console.error('worker failed:', e.stack));
w.on('exit', () => console.log('aggregation finished'));
