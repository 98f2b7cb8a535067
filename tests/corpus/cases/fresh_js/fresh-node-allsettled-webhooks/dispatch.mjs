const targets = ['http://127.0.0.1:1/hook', 'http://127.0.0.1:9/hook', 'http://127.0.0.1:7/hook'];
const results = await Promise.allSettled(
  targets.map((url) => fetch(url, { method: 'POST', body: '{"event":"deploy"}' })),
);
results.forEach((r, i) => {
  if (r.status === 'rejected') console.warn(`webhook ${i} failed:`, r.reason);
});
console.log(`webhooks dispatched: ${results.length}`);
