import { test, expect } from "vitest";
let attempt = 0;
test("fetches profile", { retry: 2 }, () => {
  attempt++;
  if (attempt === 1) {
    console.warn("attempt 1 failed: ECONNRESET, retrying");
    throw new Error("ECONNRESET");
  }
  expect(attempt).toBe(2);
});
