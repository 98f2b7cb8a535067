const fs = require("fs");
const zlib = require("zlib");
const { pipeline } = require("stream");
fs.mkdirSync("out", { recursive: true });
pipeline(fs.createReadStream("data/events.ndjson"), zlib.createGzip(), fs.createWriteStream("out/events.ndjson.gz"), (err) => {
  if (err) console.error("export failed:", err.message);
  else console.log("export done");
});
