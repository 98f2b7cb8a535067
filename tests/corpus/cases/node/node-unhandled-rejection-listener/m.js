process.on('unhandledRejection', (r) => console.error('Unhandled rejection:', r));
Promise.reject(new Error('migration 7 failed: relation "users" already exists'));
