function load() { throw new TypeError('cannot read config: port must be a number'); }
load();
