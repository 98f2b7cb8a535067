console.log('api: listening on :3000');
setTimeout(() => console.log('api: shutting down'), 300);
