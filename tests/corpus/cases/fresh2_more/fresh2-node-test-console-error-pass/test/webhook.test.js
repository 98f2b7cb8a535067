const test = require("node:test");
const assert = require("assert");
function verify(sig) {
  if (sig !== "good") {
    console.error(new Error(`invalid webhook signature ${JSON.stringify(sig)}`));
    return false;
  }
  return true;
}
test("accepts a good signature", () => assert.ok(verify("good")));
test("rejects a forged signature", () => assert.ok(!verify("forged")));
