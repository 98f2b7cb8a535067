"""Newline work of the classifier: the line count, the native build's match handler, and a
chunk's line summary (each first id's count, the lines the walk visits).

``count_newlines`` is C when the native build made ``_newlines`` (setup.py: CPython's
``bytes.count`` keeps a scalar loop, the C one runs 16 bytes a step), else ``bytes.count``.
``LineEndHits`` is the C match handler (engine.py: each hit moved to its line's end, no Python
call per match), or None in the pure build, whose database keeps its tails instead.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from itertools import compress
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from autofix.patterns._newlines import Hits


def _count(data: bytes, start: int, end: int) -> int:
    return data.count(b"\n", start, end)


def _summary(first: dict[int, int], special: tuple[bool, ...]) -> tuple[dict[int, int], list[int]]:
    return Counter(first.values()), sorted(
        compress(first, map(special.__getitem__, first.values()))
    )


count_newlines: Callable[[bytes, int, int], int] = _count
line_summary: Callable[[dict[int, int], tuple[bool, ...]], tuple[dict[int, int], list[int]]] = (
    _summary
)
LineEndHits: type[Hits] | None = None
try:
    from autofix.patterns import _newlines
except ImportError:  # the pure build
    pass
else:
    count_newlines = _newlines.count
    line_summary = _newlines.summary
    LineEndHits = _newlines.Hits
