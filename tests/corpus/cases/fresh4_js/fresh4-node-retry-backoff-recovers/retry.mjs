const url = `${process.env.HTTP_APP}/flaky/fresh4-node/2`;
for (let attempt = 1; attempt <= 5; attempt++) {
  const res = await fetch(url);
  if (res.ok) { console.log(`attempt ${attempt}: ${(await res.text()).trim()}`); process.exit(0); }
  console.error(`Error: upstream returned ${res.status} ${res.statusText} (attempt ${attempt}), backing off ${2 ** attempt * 10}ms`);
  await new Promise((r) => setTimeout(r, 2 ** attempt * 10));
}
process.exit(1);
