const fs = require('fs');
const buf = fs.readFileSync('photo.png');
if (!buf.subarray(0, 4).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47]))) {
  process.stderr.write(Buffer.concat([Buffer.from('invalid PNG header: '), buf.subarray(0, 12), Buffer.from('\n')]));
  process.exit(1);
}
