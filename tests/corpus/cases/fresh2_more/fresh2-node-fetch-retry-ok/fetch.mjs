const url = `${process.env.HTTP_APP}/flaky/f2-node/2`;
for (let i = 1; i <= 5; i++) {
  const res = await fetch(url);
  if (res.ok) { console.log("fetched:", (await res.text()).trim()); process.exit(0); }
  console.error(`Error: request failed with status ${res.status} (attempt ${i}), retrying`);
  await new Promise((r) => setTimeout(r, 100));
}
process.exit(1);
