local cfg = {};
{ replicas: if std.objectHas(cfg, 'replicas') then cfg.replicas else std.trace('WARNING: replicas not set, defaulting to 1', 1) }
