async function withRetry(fn, tries = 3) {
  for (let i = 1; ; i++) {
    try {
      return await fn();
    } catch (err) {
      console.error(`attempt ${i} failed:`, err);
      if (i >= tries) throw err;
    }
  }
}
module.exports = { withRetry };
