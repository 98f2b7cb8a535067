const assert = require("assert");
const { EventEmitter } = require("events");
function download(url) {
  const ev = new EventEmitter();
  ev.on("error", (e) => console.error("download error:", e.stack.split("\n")[0]));
  setImmediate(() => ev.emit("error", new Error(`ETIMEDOUT ${url}`)));
  return ev;
}
describe("download", () => {
  it("emits error on timeout", (done) => {
    const ev = download("http://127.0.0.1:9/file");
    ev.on("error", (e) => { assert.match(e.message, /ETIMEDOUT/); done(); });
  });
});
