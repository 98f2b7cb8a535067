function query(sql) {
  const started = Date.now() - 1200;
  const ms = Date.now() - started;
  if (ms > 1000) console.trace(`slow query (${ms} ms): ${sql}`);
  return [{ region: 'eu', total: 120 }, { region: 'us', total: 80 }];
}
for (const r of query('SELECT region, SUM(total) FROM orders GROUP BY region')) {
  console.log(`${r.region}\t${r.total}`);
}
