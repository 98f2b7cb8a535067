from typing import Any

def load(raw: Any) -> dict[str, int]:
    data: dict[str, int] = dict(raw)
    return data

result = load({"errors": 0, "failures": 0})
reveal_type(result)
