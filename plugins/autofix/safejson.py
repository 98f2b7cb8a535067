"""JSON from untrusted text (agent output): bounded nesting, and only ValueError on bad input.

``json.loads`` raises RecursionError on ~1,000 nested brackets, and a value nested a few hundred
deep still breaks whatever recurses over it later (redaction, pydantic, Airflow's serde).
"""

from __future__ import annotations

import json
from typing import Any

from autofix.errors import AutofixError

# Deeper than any agent event or answer we have seen (~10); well inside every recursion limit.
MAX_DEPTH = 100


class TooDeepError(AutofixError, ValueError):
    """The JSON nests deeper than MAX_DEPTH."""

    def __init__(self, limit: int = MAX_DEPTH) -> None:
        super().__init__(f"JSON nested deeper than {limit} levels")


def depth_exceeds(value: Any, limit: int = MAX_DEPTH) -> bool:
    """True when ``value`` has containers nested deeper than ``limit`` (iterative walk)."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children: Any = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        if depth > limit:
            return True
        stack.extend((child, depth + 1) for child in children if isinstance(child, dict | list))
    return False


def loads(text: str | bytes, **kwargs: Any) -> Any:
    """``json.loads``, raising only ValueError (TooDeepError past MAX_DEPTH)."""
    try:
        value = json.loads(text, **kwargs)
    except RecursionError:
        raise TooDeepError() from None
    # Cheap gate: a value can nest no deeper than its number of opening brackets.
    opening = text.count("[") + text.count("{") if isinstance(text, str) else MAX_DEPTH + 1
    if opening > MAX_DEPTH and depth_exceeds(value):
        raise TooDeepError()
    return value
