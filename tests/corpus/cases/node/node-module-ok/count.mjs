const words = 'a b a c b a'.split(' ');
const n = {};
for (const w of words) n[w] = (n[w] ?? 0) + 1;
console.log(JSON.stringify(n));
