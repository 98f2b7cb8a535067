from typing import Optional

def port(cfg: dict[str, str]) -> int:
    return cfg.get("port")

def greet(name: Optional[str]) -> str:
    return "hi " + name
