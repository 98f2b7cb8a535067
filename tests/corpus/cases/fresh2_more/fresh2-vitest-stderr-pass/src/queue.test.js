import { test, expect } from "vitest";
function drain(items) {
  const ok = [];
  for (const it of items) {
    if (typeof it !== "number") { console.error(`ERROR queue: dropping malformed item ${JSON.stringify(it)}`); continue; }
    ok.push(it);
  }
  return ok;
}
test("drops malformed items", () => { expect(drain([1, "x", 2, null])).toEqual([1, 2]); });
