"""Newline work of the classifier: the line count, and the engine's match handler, which keeps
each hit at its line's end (engine.py).

In C when the native build made ``_newlines`` (setup.py): CPython's ``bytes.count`` keeps a
scalar loop where the C one runs 16 bytes a step, and a C handler costs the scan no Python frame
per match. Else the same code here; tests/test_native.py holds the two equal.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def _count(data: bytes, start: int, end: int) -> int:
    return data.count(b"\n", start, end)


class _Hits:
    """The engine's match handler: each match kept as ``end << bits | id``. ``take(data)`` moves
    every end to its line's end (its newline, or the end of ``data``) and returns the rule hits
    and, apart, the ends of the lines that ``candidate`` marked, each once, ascending."""

    def __init__(self, bits: int, candidate: int) -> None:
        self._bits = bits
        self._candidate = candidate
        self._values: list[int] = []

    def __call__(self, i: int, _start: int, end: int, _flags: int, _context: Any) -> None:
        self._values.append(end << self._bits | i)

    def take(self, data: bytes) -> tuple[list[int], list[int]]:
        bits, mask = self._bits, (1 << self._bits) - 1
        find = data.find
        size = len(data)
        low = 0
        high = -1  # ends from ``low`` to ``high`` are on the line ending at ``high``
        hits: list[int] = []
        marked: set[int] = set()
        for value in self._values:
            end = value >> bits
            if end > size:
                raise ValueError("a hit's end is outside data")
            if end != size and data[end] != 10:  # else a tailed expression's, or its line's end
                if end > high or end < low:
                    low = end
                    high = find(b"\n", end)
                    if high < 0:
                        high = size
                end = high
            if value & mask == self._candidate:
                marked.add(end)
            else:
                hits.append(end << bits | value & mask)
        self._values = []
        return hits, sorted(marked)


count_newlines: Callable[[bytes, int, int], int] = _count
Hits: type[_Hits] = _Hits
try:
    from autofix.patterns import _newlines
except ImportError:  # the pure build
    pass
else:
    count_newlines = _newlines.count
    Hits = _newlines.Hits  # type: ignore[assignment]  # the same interface, in C
