import logging, json
logging.basicConfig(format="%(levelname)s:%(name)s:%(message)s")
log = logging.getLogger("config")
raw = {"db_url": "sqlite://", "workers": 4, "use_ssl": True, "colour": "auto", "timeout": 30}
renamed = {"use_ssl": "tls", "colour": "color"}
cfg = {}
for k, v in raw.items():
    if k in renamed:
        log.warning("key %r is deprecated, use %r", k, renamed[k])
        k = renamed[k]
    cfg[k] = v
log.error("unknown key 'timeout' ignored (did you mean 'timeout_s'?)")
cfg.pop("timeout")
print(json.dumps(cfg, sort_keys=True))
