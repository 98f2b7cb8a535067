import http from "node:http";
const srv = http.createServer((req, res) => {
  if (req.url === "/error") {
    console.error(`[app] Error: simulated failure for ${req.url}\n    at handler (smoke.mjs:5:21)`);
    res.writeHead(500).end("internal error");
    return;
  }
  res.end("ok");
});
await new Promise((r) => srv.listen(0, "127.0.0.1", r));
const base = `http://127.0.0.1:${srv.address().port}`;
const a = await fetch(`${base}/health`);
const b = await fetch(`${base}/error`);
console.log(`health=${a.status} error-route=${b.status} (expected 200/500)`);
const ok = a.status === 200 && b.status === 500;
srv.close(() => { console.log(ok ? "smoke checks passed, server closed" : "smoke FAILED"); process.exit(ok ? 0 : 1); });
