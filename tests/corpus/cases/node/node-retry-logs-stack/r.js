let n = 0;
async function fetchData() { n += 1; if (n < 2) throw new Error('ETIMEDOUT 10.0.0.5:443'); return {rows: 3}; }
(async () => {
  for (let i = 1; i <= 3; i++) {
    try { const d = await fetchData(); console.log('got', d.rows, 'rows'); return; }
    catch (e) { console.error(`attempt ${i} failed, retrying:`, e); }
  }
  process.exit(1);
})();
