from typing import TypedDict

class Row(TypedDict):
    id: int
    err: str | None

def first(rows: list[Row]) -> Row:
    return rows[0]

reveal_type(first)
