const fs = require("fs");
function check(a) { return a == null; }
module.exports = { check };
