const t = require("tap");
const { price } = require("./price");
t.equal(price(100, "member"), 90, "member price");
t.equal(price(100, "vip"), 75, "vip price");
t.end();
