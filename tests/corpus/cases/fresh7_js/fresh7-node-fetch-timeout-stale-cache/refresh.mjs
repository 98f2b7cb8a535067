import { readFile, writeFile } from 'node:fs/promises';
const cache = JSON.parse(await readFile('cache.json', 'utf8'));
try {
  const res = await fetch(`${process.env.HTTP_APP}/slow/3`, { signal: AbortSignal.timeout(500) });
  const text = await res.text();
  await writeFile('cache.json', JSON.stringify({ fetchedAt: new Date().toISOString(), raw: text }));
  console.log('rates refreshed');
} catch (err) {
  console.error(`rates refresh failed: ${err.name}: ${err.message}`);
  console.log(`using cached rates from ${cache.fetchedAt}`);
}
