import test from "ava";

const parse = (s) => s.split(",").map(Number);

test("parses numbers", (t) => {
  t.deepEqual(parse("1,2,3"), [1, 2, 3]);
});

test("ignores blanks", (t) => {
  t.deepEqual(parse("1,,3"), [1, 3]);
});
