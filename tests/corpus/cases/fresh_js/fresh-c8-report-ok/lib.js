function fee(amount, tier) {
  if (tier === 'gold') return 0;
  if (tier === 'silver') return amount * 0.01;
  if (amount > 1000) return 5;
  return amount * 0.02;
}
function refund(amount) {
  if (amount <= 0) throw new Error('bad amount');
  return -amount;
}
module.exports = { fee, refund };
