const fs = require("fs"), zlib = require("zlib"), { pipeline } = require("stream");
pipeline(fs.createReadStream("export.ndjson"), zlib.createGzip(), fs.createWriteStream("export.ndjson.gz"), (err) => {
  if (err) console.error("compress failed:", err.message);
  else console.log("compressed");
});
