function total(xs) {
  console.log('debug', xs);
  return xs.reduce((a, b) => a + b, 0);
}
module.exports = total;
