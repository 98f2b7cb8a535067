const url = `${process.env.HTTP_APP}/flaky/fresh-node-retry/2`;
for (let attempt = 1; attempt <= 5; attempt++) {
  try {
    const res = await fetch(url);
    if (!res.ok) throw new Error(`HTTP ${res.status} ${res.statusText} from ${url}`);
    console.log('got:', (await res.text()).trim());
    break;
  } catch (err) {
    console.error(`attempt ${attempt} failed, retrying`, err);
    await new Promise((r) => setTimeout(r, 100));
  }
}
