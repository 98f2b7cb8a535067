exports.vat = (n) => Math.round(n * 120) / 100;
exports.reverseCharge = () => { throw new Error('not implemented'); };
