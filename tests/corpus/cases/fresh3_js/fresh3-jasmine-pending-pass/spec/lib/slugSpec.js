const { slug } = require("../../lib/slug");

describe("slug", () => {
  it("lowercases", () => {
    expect(slug("Hello World")).toBe("hello-world");
  });
  it("strips accents", () => {
    expect(slug("Crème Brûlée")).toBe("creme-brulee");
  });
  xit("handles emoji", () => {});
});
