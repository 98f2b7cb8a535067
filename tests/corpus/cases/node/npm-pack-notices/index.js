exports.v = 1;
