const defaults = { retries: 3, timeout: 10, retries: 5 };
if (typeof window == 'undefinded') console.log('server');
console.log(defaults);
