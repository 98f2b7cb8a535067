module.exports = (s) => s.toLowerCase().replace(/\s+/g, '-');
