local cfg = {db = nil}
print('host: ' .. cfg.db.host)
