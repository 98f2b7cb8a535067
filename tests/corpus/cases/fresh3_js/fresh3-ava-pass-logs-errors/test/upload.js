import test from "ava";

function upload(size) {
  if (size > 10) {
    console.error(`ERROR upload rejected: ${size} MB exceeds the 10 MB limit`);
    throw new RangeError("file too large");
  }
  return "stored";
}

test("rejects big files with an error", (t) => {
  const err = t.throws(() => upload(50), { instanceOf: RangeError });
  t.log("got expected error:", err.message);
});

test("stores small files", (t) => {
  t.is(upload(2), "stored");
});
