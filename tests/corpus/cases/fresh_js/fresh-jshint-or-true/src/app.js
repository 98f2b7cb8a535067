const fs = require('fs');
function load(p) {
  return JSON.parse(fs.readFileSync(p, 'utf8'))
}
console.log(lod('x.json'));
