function report(err) {
  console.error(`[worker] fatal: ${err.message}\n${err.stack.split("\n").slice(0, 3).join("\n")}`);
  console.warn("[worker] restarting in 1000ms");
  return "restarted";
}
test("report restarts the worker", () => {
  expect(report(new Error("ECONNREFUSED 127.0.0.1:6379"))).toBe("restarted");
});
test("noop", () => expect(1).toBe(1));
