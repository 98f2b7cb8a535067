const { withRetry } = require('./client');
test('recovers after two failures', async () => {
  let n = 0;
  const v = await withRetry(async () => { if (++n < 3) throw new Error('ECONNRESET'); return 'ok'; });
  expect(v).toBe('ok');
});
