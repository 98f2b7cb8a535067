async function retry(fn, n) {
  for (let i = 1; ; i++) {
    try { return await fn(); } catch (e) {
      console.error(`attempt ${i} failed:`, e);
      if (i >= n) throw e;
    }
  }
}
test("recovers after two failures", async () => {
  let calls = 0;
  const r = await retry(async () => { if (++calls < 3) throw new Error("ETIMEDOUT"); return "ok"; }, 5);
  expect(r).toBe("ok");
});
