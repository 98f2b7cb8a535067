const { spawn } = require('child_process');
const p = spawn('protoc-gen-ts', ['--out', 'gen', 'api.proto']);
p.on('error', (e) => console.error(`codegen: ${e.message}`));
p.on('close', (code) => console.log(`codegen step done (code ${code})`));
