"""Newline work of the classifier: the line count, and the engine's hits moved to their lines'
ends (engine.py).

In C when the native build made ``_newlines`` (setup.py: CPython's ``bytes.count`` keeps a
scalar loop, the C one runs 16 bytes a step), else the same code here; tests/test_native.py
holds the two equal.
"""

from __future__ import annotations

from collections.abc import Callable


def _count(data: bytes, start: int, end: int) -> int:
    return data.count(b"\n", start, end)


def _to_line_ends(data: bytes, hits: list[int], bits: int) -> None:
    """Each hit, ``end << bits | id``, with its match's end replaced in place by the end of its
    line: its newline, or the end of ``data``. Matches come in ascending end order, so a line
    is looked up once."""
    find = data.find
    size = len(data)
    mask = (1 << bits) - 1
    low = 0
    high = -1  # ends from ``low`` to ``high`` are on the line ending at ``high``
    for k, value in enumerate(hits):
        end = value >> bits
        if not 0 <= end <= size:
            raise ValueError("a hit's end is outside data")
        if end == size or data[end] == 10:
            continue  # a tailed expression's, or the match ended its line
        if end > high or end < low:
            low = end
            high = find(b"\n", end)
            if high < 0:
                high = size
        hits[k] = high << bits | value & mask


count_newlines: Callable[[bytes, int, int], int] = _count
to_line_ends: Callable[[bytes, list[int], int], None] = _to_line_ends
try:
    from autofix.patterns import _newlines
except ImportError:  # the pure build
    pass
else:
    count_newlines = _newlines.count
    to_line_ends = _newlines.to_line_ends
