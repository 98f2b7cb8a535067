const round = (x) => Math.round(x * 100) / 100;
test("rounds to cents", () => expect(round(1.234)).toBe(1.23));
test.failing("known bug #512: binary float rounding", () => expect(round(1.005)).toBe(1.01));
test("logs on bad input", () => {
  console.error("error: invalid amount 'abc'");
  expect(Number.isNaN(Number("abc"))).toBe(true);
});
