const { exec } = require('node:child_process');
exec('git push origin v2.0.0', (err, stdout, stderr) => {
  if (err) {
    console.error(`release: push failed (${err.code})`);
    console.error(stderr);
    return;
  }
  console.log('release pushed');
});
