process.on('uncaughtException', (err) => { console.error('upload failed:', err); });
setTimeout(() => { throw new Error('S3 PutObject failed: AccessDenied'); }, 10);
