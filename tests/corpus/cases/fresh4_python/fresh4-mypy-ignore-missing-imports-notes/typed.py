from typing import Any
import json

def load(s: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(s)
    return data

reveal_type(load)
