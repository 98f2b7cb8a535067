process.on('SIGTERM', () => console.log('SIGTERM received, draining connections...'));
setInterval(() => {}, 1000);
console.log('listening');
