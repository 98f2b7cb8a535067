process.on('SIGTERM', () => console.log('SIGTERM received, draining connections...'));
console.log('listening on :3000');
setInterval(() => {}, 1000);
