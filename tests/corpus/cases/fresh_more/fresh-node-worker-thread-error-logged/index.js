const { Worker } = require('node:worker_threads');
const w = new Worker(`
  const docs = JSON.parse(require('fs').readFileSync('docs.json', 'utf8'));
  console.log('indexed', docs.length);
`, { eval: true });
w.on('error', (err) => console.error('indexer worker error:', err));
w.on('exit', (code) => console.log(`indexer finished (worker exit ${code})`));
