var error = new Error('disk full');
console.error(error.message);
