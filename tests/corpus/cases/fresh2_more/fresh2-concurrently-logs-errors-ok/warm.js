for (const k of ['users', 'orders']) console.error(`ERROR cache miss for ${k}, rebuilding`);
console.log('warm: done');
