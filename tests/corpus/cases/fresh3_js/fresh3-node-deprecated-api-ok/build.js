const url = require("url");
const fs = require("fs");
const u = url.parse("https://api.example.com:8443/v1");
const b = new Buffer(u.hostname);
fs.mkdirSync("dist", { recursive: true });
fs.writeFileSync("dist/host.txt", b.toString() + "\n");
