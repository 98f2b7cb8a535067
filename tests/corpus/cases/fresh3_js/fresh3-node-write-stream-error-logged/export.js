const fs = require("fs");
const out = fs.createWriteStream("reports/2024/q1.csv");
out.on("error", (err) => console.error("stream error:", err.code, err.path));
out.write("id,total\n1,9.99\n");
out.end(() => console.log("export written"));
console.log("export written");
