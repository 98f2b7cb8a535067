process.on('uncaughtException', (e) => { console.error(e); process.exitCode = 1; });
process.on('exit', () => { console.log('cleanup done'); process.exitCode = 0; });
const cfg = undefined;
console.log(cfg.outputDir);
