def port(cfg: dict[str, str]) -> int:
    return cfg['port']

port({'port': 8080})
