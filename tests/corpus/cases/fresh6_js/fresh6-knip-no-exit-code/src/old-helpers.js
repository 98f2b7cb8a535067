exports.pad = (s) => ' ' + s;
