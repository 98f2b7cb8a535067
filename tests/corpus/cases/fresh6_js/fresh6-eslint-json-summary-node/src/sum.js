module.exports = (xs) => xs.reduce((a, b) => a + b, totl);
