const x = y + 1
module.exports = x;
