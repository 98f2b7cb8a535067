async function build() {
  const fs = require('fs/promises');
  await fs.readFile('src/index.ts');
  console.log('built');
}
build().catch(console.error);
