local cfg = nil
print(cfg.port)
