import { test, expect, describe } from "vitest";
describe("config parse", () => {
  test("throws SyntaxError on invalid JSON", () => {
    expect(() => JSON.parse("{oops")).toThrow(SyntaxError);
  });
  test.todo("reports the failing line number");
  test.skip("fails on BOM", () => {});
});
