const t = require("tap");
let calls = 0;
function get() {
  calls++;
  if (calls < 2) { console.error(`error: attempt ${calls} failed with ETIMEDOUT, retrying`); return null; }
  return "ok";
}
process.emitWarning("get() without options is deprecated", "DeprecationWarning");
let r = null;
while (r === null) r = get();
t.equal(r, "ok", "eventually succeeds");
t.end();
