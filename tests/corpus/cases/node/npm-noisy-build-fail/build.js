for (let i = 0; i < 30; i++) console.error(`warning: unused variable 'tmp${i}' in src/mod${i}.js`);
console.error('src/main.js:12: cannot resolve import "./config"');
process.exit(1);
