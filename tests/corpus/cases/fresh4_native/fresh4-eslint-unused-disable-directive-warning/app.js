// eslint-disable-next-line no-undef
const x = 1;
module.exports = x;
