const { workerData, parentPort } = require('worker_threads');
const total = workerData.rows.reduce((a, r) => a + r.toFixed(2) * 1, 0);
parentPort.postMessage({ total });
