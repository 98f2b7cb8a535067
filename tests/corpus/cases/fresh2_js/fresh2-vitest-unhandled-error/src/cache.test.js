import { test, expect } from "vitest";
function warm() { Promise.reject(new Error("redis: connection lost")); return true; }
test("warm returns true", () => { expect(warm()).toBe(true); });
