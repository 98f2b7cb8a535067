exports.v = 42;
