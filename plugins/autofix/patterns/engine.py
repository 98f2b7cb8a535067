"""Hyperscan (Vectorscan): every rule of a rule set in one linear-time pass over a chunk.

Why this engine and how: docs/engine-choice.md. Each rule becomes one expression extended to the
end of its line, ``(?:rule)[^\\n]*$`` in multi-line mode, so a match's end offset is its line's
newline. The native build's database leaves that tail out (``_untailed``: it made a quarter of
the scan on quiet input) and its C match handler moves each end to its line's newline instead,
keeping each (line, id) once, sorted, with each line's smallest id. The smallest id per line is
the first rule in order. Flag expressions (smaller ids still) mark lines that need the slow
path: terminal control (``\\r``, ESC, CSI) and warning heads, which open noise blocks. Rules
run on the line's UTF-8 bytes: ``\\w \\d \\s \\b`` and case folding are ASCII.

A rule runs in one of three modes (``autofix patterns check`` prints them):
- ``engine``: the engine's match is the verdict;
- ``engine+verify``: the rule can match a newline, so an engine hit is a candidate that the
  rule's own regex confirms on the line (built-ins with ``re``; user rules with ``regex``
  and the timeout);
- ``fallback``: the engine cannot take the rule (lookaround, backreferences, ...); its
  required literals find candidate lines and ``regex`` with the timeout decides, after the
  static ReDoS check at load, as before.
Without the ``hyperscan`` wheel the classifier keeps its literal-key path (compiled.py).

A built-in may run part of itself *confirmed* (``engine_confirm``): an expression that would
make the whole database dear (a long run of a class from the line's start, before a rare
word) is left out of it; a cheap superset of it (the ``prefilter``) marks candidate lines
instead, and a second database of the exact expressions scans only those lines, joined. The
hits are the exact expressions' own, so the mode stays ``engine``. In the native build the C
handler joins the lines and maps the hits back (``_scan_native``).
"""

from __future__ import annotations

import importlib
import os
import re
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import repeat
from typing import Any

from autofix.patterns.newlines import LineEndHits
from autofix.patterns.redos import can_match_newline, required_literals

hyperscan: Any
try:  # a wheel for every platform we target; the marker in pyproject.toml keeps pip off the sdist
    hyperscan = importlib.import_module("hyperscan")
except ImportError:  # pragma: no cover - the fallback path
    hyperscan = None

ENGINE_ENV = "AUTOFIX_PATTERN_ENGINE"  # "fallback" forces the literal-key path (tests, CI)
MODE_ENGINE, MODE_VERIFY, MODE_FALLBACK = "engine", "engine+verify", "fallback"
ID_BITS = 10
ID_MASK = (1 << ID_BITS) - 1
# Terminal control on the line (a CRLF line ending included): normalise it, then scan it again.
F_SLOW = 0
# A Python or a Node warning head (blocks.py's shapes; Python's first, as there): the noise
# block it opens needs the walk.
F_PY_WARNING = 1
F_NODE_WARNING = 2
N_FLAGS = 3
# The id every prefilter reports under: above every rule's, and never kept as a hit.
F_CANDIDATE = ID_MASK
_EOL = r"[^\n]*$"
FLAG_EXPRESSIONS = [
    (F_SLOW, r"[\r\x1b]" + _EOL),
    (F_SLOW, r"\xc2\x9b" + _EOL),  # U+009B, the one-byte CSI, in UTF-8
    (F_PY_WARNING, r"\.py:\d+: [A-Za-z]*Warning: " + _EOL),
    (F_NODE_WARNING, r"^\(node:\d+\) " + _EOL),
]


def _not(cls: str) -> str:
    """A byte outside ``cls``, or the end of the line."""
    return rf"(?:[^{cls}\n]{_EOL}|$)"


# Each expression witnesses a byte sequence Python's strict UTF-8 decoder rejects; a chunk that
# fails to decode is scanned with them to find exactly its invalid lines.
_BAD_UTF8 = [
    r"[\xc0\xc1\xf5-\xff]" + _EOL,
    r"(?:^|[\x00-\x7f])[\x80-\xbf]" + _EOL,
    r"[\xc2-\xdf]" + _not(r"\x80-\xbf"),
    r"\xe0" + _not(r"\xa0-\xbf"),
    r"\xe0[\xa0-\xbf]" + _not(r"\x80-\xbf"),
    r"[\xe1-\xec\xee\xef]" + _not(r"\x80-\xbf"),
    r"[\xe1-\xec\xee\xef][\x80-\xbf]" + _not(r"\x80-\xbf"),
    r"\xed" + _not(r"\x80-\x9f"),
    r"\xed[\x80-\x9f]" + _not(r"\x80-\xbf"),
    r"\xf0" + _not(r"\x90-\xbf"),
    r"\xf0[\x90-\xbf]" + _not(r"\x80-\xbf"),
    r"\xf0[\x90-\xbf][\x80-\xbf]" + _not(r"\x80-\xbf"),
    r"[\xf1-\xf3]" + _not(r"\x80-\xbf"),
    r"[\xf1-\xf3][\x80-\xbf]" + _not(r"\x80-\xbf"),
    r"[\xf1-\xf3][\x80-\xbf]{2}" + _not(r"\x80-\xbf"),
    r"\xf4" + _not(r"\x80-\x8f"),
    r"\xf4[\x80-\x8f]" + _not(r"\x80-\xbf"),
    r"\xf4[\x80-\x8f][\x80-\xbf]" + _not(r"\x80-\xbf"),
    r"[\xc2-\xdf][\x80-\xbf]{2}" + _EOL,
    r"[\xe0-\xef][\x80-\xbf]{3}" + _EOL,
    r"[\xf0-\xf4][\x80-\xbf]{4}" + _EOL,
]

_PARSER: Any = __import__("re._parser", fromlist=["_parser"])
_UNSUPPORTED = {"ASSERT", "ASSERT_NOT", "GROUPREF", "GROUPREF_EXISTS", "ATOMIC_GROUP"}
_UNSUPPORTED_REPEAT = "POSSESSIVE_REPEAT"


def installed() -> bool:
    return hyperscan is not None


def available() -> bool:
    """Is the engine installed and not switched off (``AUTOFIX_PATTERN_ENGINE=fallback``)?"""
    return hyperscan is not None and os.environ.get(ENGINE_ENV, "") != "fallback"


def _ops(items: Any) -> set[str]:
    """Names of the parser's opcodes in a parsed pattern (and ``AT`` positions)."""
    found: set[str] = set()
    for op, av in items:
        name = str(op)
        found.add(name)
        if name == "AT":
            found.add(str(av))
        children: list[Any] = []
        if name in ("MAX_REPEAT", "MIN_REPEAT", _UNSUPPORTED_REPEAT):
            children = [av[2]]
        elif name == "SUBPATTERN":
            children = [av[3]]
        elif name == "BRANCH":
            children = list(av[1])
        elif name in ("ASSERT", "ASSERT_NOT"):
            children = [av[1]]
        elif name == "ATOMIC_GROUP":
            children = [av]
        elif name == "GROUPREF_EXISTS":
            children = [c for c in av[1:] if c is not None]
        for child in children:
            found |= _ops(child)
    return found


def _python_only_syntax(pattern: str) -> str | None:
    r"""Text the engine (PCRE syntax) reads differently from Python, or None.

    ``x{,3}`` is 0..3 in Python and the literal text "{,3}" in PCRE; ``\A``/``\Z`` are the
    line's ends for a per-line ``re`` but the buffer's ends for the engine.
    """
    escaped = in_class = False
    for k, ch in enumerate(pattern):
        if escaped:
            escaped = False
            if not in_class and ch in "AZz":
                return f"\\{ch}"
            continue
        if ch == "\\":
            escaped = True
        elif ch == "[" and not in_class:
            in_class = True
        elif ch == "]" and in_class:
            in_class = False
        elif ch == "{" and not in_class and pattern[k + 1 : k + 2] == ",":
            return "{,n}"
    return None


@dataclass(frozen=True)
class EngineRule:
    """How one rule runs: its mode, why, and the expressions the engine scans for it."""

    mode: str
    expressions: tuple[str, ...]
    caseless: bool
    why: str = ""
    # (prefilter, exact) pairs run confirmed; the exact expressions' hits are the rule's too.
    confirm: tuple[tuple[str, str], ...] = ()


def _flags(caseless: bool) -> int:
    assert hyperscan is not None
    return int(hyperscan.HS_FLAG_MULTILINE | (hyperscan.HS_FLAG_CASELESS if caseless else 0))


def _compile(expressions: Sequence[str], ids: Sequence[int], flags: Sequence[int]) -> Any:
    assert hyperscan is not None
    db = hyperscan.Database(mode=hyperscan.HS_MODE_BLOCK)
    db.compile(
        expressions=[e.encode("utf-8") for e in expressions],  # \xNN stays text: one byte each
        ids=list(ids),
        elements=len(expressions),
        flags=list(flags),
    )
    return db


def _ends_with_end_anchor(pattern: str, case_sensitive: bool) -> bool:
    """Is the pattern's last top-level item ``$``, the only one (then every match ends a line)?"""
    items = list(_PARSER.parse(pattern, 0 if case_sensitive else re.IGNORECASE))
    if not items or str(items[-1][0]) != "AT" or str(items[-1][1]) != "AT_END":
        return False
    return "AT_END" not in _ops(items[:-1])


def plan_rule(
    rule_type: str,
    pattern: str,
    case_sensitive: bool,
    engine_form: str | None = None,
    confirm: Sequence[tuple[str, str]] = (),
) -> EngineRule:
    """The mode a rule runs in, decided at load: the static shape first, then a trial compile.
    ``engine_form`` and ``confirm``: a built-in's hand-written form, in the main database and
    confirmed on candidate lines (either may be empty, not both)."""
    caseless = not case_sensitive
    if engine_form is not None or confirm:
        forms = () if engine_form is None else (engine_form,)
        return EngineRule(MODE_ENGINE, forms, caseless, confirm=tuple(confirm))
    if rule_type == "substring":
        return EngineRule(MODE_ENGINE, (f"(?:{re.escape(pattern)}){_EOL}",), caseless)
    why = ""
    try:
        ops = _ops(_PARSER.parse(pattern, 0 if case_sensitive else re.IGNORECASE))
    except Exception:  # `regex`-only syntax the stdlib parser can't read
        ops, why = set(), "syntax only the `regex` module reads"
    bad = sorted(ops & (_UNSUPPORTED | {_UNSUPPORTED_REPEAT}))
    if bad and not why:
        names = {
            "ASSERT": "lookaround",
            "ASSERT_NOT": "lookaround",
            "GROUPREF": "backreference",
            "GROUPREF_EXISTS": "conditional",
            "ATOMIC_GROUP": "atomic group",
            _UNSUPPORTED_REPEAT: "possessive repeat",
        }
        why = "the engine has no " + ", ".join(sorted({names[b] for b in bad}))
    quirk = _python_only_syntax(pattern)
    if quirk and not why:
        why = f"{quirk} means something else to the engine"
    ends_anchored = not why and _ends_with_end_anchor(pattern, case_sensitive)
    if not why and "AT_END" in ops and not ends_anchored:
        why = "an end anchor inside the pattern (the engine can't extend it to the line's end)"
    if not why:
        expression = pattern if ends_anchored else f"(?:{pattern}){_EOL}"
        try:
            _compile([expression], [0], [_flags(caseless)])
        except Exception as exc:  # the engine's own word on its syntax
            why = f"engine: {exc}"
        else:
            if can_match_newline(pattern, case_sensitive):
                return EngineRule(
                    MODE_VERIFY, (expression,), caseless, "can match a newline: hits are verified"
                )
            return EngineRule(MODE_ENGINE, (expression,), caseless)
    literals = required_literals(pattern, case_sensitive) or []
    keys = tuple(f"(?:{re.escape(lit)}){_EOL}" for lit in literals if len(lit.encode()) >= 2)
    if not keys:
        why += "; no literal of 2+ bytes, so it is tried on every non-empty line"
        keys = ("[^\\n]$",)
    return EngineRule(MODE_FALLBACK, keys, True, why)


def long_line_ends(data: bytes, cap: int) -> list[int]:
    """Ends of the lines longer than ``cap`` bytes. Every such line wholly contains an aligned
    block of ``(cap + 1) // 2`` bytes, which then holds no newline: one ``find`` per block."""
    step = (cap + 1) // 2
    find = data.find
    ends: list[int] = []
    k = 0
    size = len(data)
    while k + step <= size:
        if find(b"\n", k, k + step) == -1:
            start = data.rfind(b"\n", 0, k) + 1
            end = find(b"\n", k + step)
            if end == -1:
                end = size
            if end - start > cap:
                ends.append(end)
            k = (end // step + 1) * step
        else:
            k += step
    return ends


_BAD_UTF8_DB: Any = None
_BAD_UTF8_LOCK = threading.Lock()


def invalid_utf8_ends(data: bytes) -> set[int]:
    """Ends of the lines of ``data`` that Python's strict UTF-8 decoder rejects."""
    global _BAD_UTF8_DB
    if _BAD_UTF8_DB is None:
        with _BAD_UTF8_LOCK:
            if _BAD_UTF8_DB is None:
                _BAD_UTF8_DB = _compile(
                    _BAD_UTF8, [0] * len(_BAD_UTF8), [_flags(False)] * len(_BAD_UTF8)
                )
    ends: set[int] = set()
    add = ends.add

    def on_match(_id: int, _start: int, end: int, _flags: int, _ctx: Any) -> None:
        add(end)

    _BAD_UTF8_DB.scan(data, match_event_handler=on_match)
    return ends


def scan_hits(db: Any, data: bytes) -> list[int]:
    """Every (line end, id) hit as ``end << ID_BITS | id``."""
    if LineEndHits is not None:  # the native build: no Python call per match
        return _scan_native(db, None, data, ())[0]
    return _scan_python(db, data)[0]


def _scan_python(db: Any, data: bytes) -> tuple[list[int], list[int]]:
    """``scan_hits`` with a Python handler, and apart the ends of the lines a prefilter marked
    (``F_CANDIDATE``); the pure build's database keeps its tails, so each end is its line's."""
    hits: list[int] = []
    candidates: list[int] = []
    append = hits.append
    mark = candidates.append

    def on_match(i: int, _start: int, end: int, _flags: int, _ctx: Any) -> None:
        if i == 1023:  # F_CANDIDATE, as a constant: this runs once per match
            mark(end)
        else:
            append(end << 10 | i)  # ID_BITS, as a constant

    db.scan(data, match_event_handler=on_match)
    return hits, candidates


def _scan_native(
    db: Any, confirm_db: Any, data: bytes, also: Sequence[tuple[int, int]]
) -> tuple[list[int], dict[int, int]]:
    """The C handler's scan: rule hits sorted and once each, and line end -> its smallest id.
    The lines a prefilter marked go to ``confirm_db`` joined, and its hits come back as theirs."""
    assert LineEndHits is not None
    handler = LineEndHits(ID_BITS, F_CANDIDATE, also)
    db.scan(data, match_event_handler=handler)
    if confirm_db is not None:
        lines = handler.candidate_lines(data)
        if lines:
            exact = LineEndHits(ID_BITS, F_CANDIDATE)
            confirm_db.scan(lines, match_event_handler=exact)
            handler.absorb(exact)
    return handler.take(data)


def scan_lines(scan: Callable[[bytes], list[int]], lines: Sequence[bytes]) -> list[int]:
    """``scan`` over ``lines`` joined in one buffer; each hit as ``index << ID_BITS | id``,
    ``index`` the line's in ``lines``. Equals scanning each line alone for expressions that
    never match a newline."""
    at: dict[int, int] = {}  # a line's newline in the buffer -> its index
    offset = -1
    for index, line in enumerate(lines):
        offset += len(line) + 1
        at[offset] = index
    found = scan(b"\n".join(lines) + b"\n")
    return [at[value >> ID_BITS] << ID_BITS | value & ID_MASK for value in found]


def lines_ending_at(data: bytes, ends: Sequence[int]) -> list[bytes]:
    """The lines of ``data`` whose newlines are at ``ends``, without them."""
    return [data[data.rfind(b"\n", 0, end) + 1 : end] for end in ends]


def confirm_hits(db: Any, data: bytes, ends: list[int]) -> list[int]:
    """The exact expressions' hits on the lines of ``data`` ending at ``ends``, scanned
    together (the expressions never match a newline). The pure build's; the native build's
    runs in C (``_scan_native``)."""
    lines = lines_ending_at(data, ends)
    return [
        ends[value >> ID_BITS] << ID_BITS | value & ID_MASK
        for value in scan_lines(lambda joined: scan_hits(db, joined), lines)
    ]


_DATABASES: dict[tuple[tuple[str, int, int], ...], Any] = {}
_DATABASES_LOCK = threading.Lock()


class Engine:
    """One compiled database for a rule set: flags first, then each rule at ``N_FLAGS + position``.

    Compiled databases are shared by identical rule sets (a hot reload that changes nothing,
    the stderr and stdout sets of one file when they agree), bounded to 64 per process.
    """

    def __init__(self, plans: Sequence[EngineRule]) -> None:
        self.plans = tuple(plans)
        if len(self.plans) + N_FLAGS >= F_CANDIDATE:
            raise ValueError(f"at most {F_CANDIDATE - N_FLAGS} rules per rule set")
        # A flag whose expression is an engine rule's own (``python-warning``'s) is scanned
        # once, in the native build: its handler reports the rule's hits for the flag too.
        also: list[tuple[int, int]] = []
        entries: list[tuple[str, int, int]] = []
        for flag, expression in FLAG_EXPRESSIONS:
            twin = self._twin(expression) if LineEndHits is not None else None
            if twin is None:
                entries.append((expression, flag, _flags(False)))
            else:
                also.append((N_FLAGS + twin, flag))
        self.also = tuple(also)
        exact: list[tuple[str, int, int]] = []
        # Untailed only where the C handler moves the ends: in Python that costs more than it saves.
        tail = _untailed if LineEndHits is not None else _as_is
        for position, plan in enumerate(self.plans):
            flags = _flags(plan.caseless)
            entries += [(tail(e), N_FLAGS + position, flags) for e in plan.expressions]
            entries += [(tail(p), F_CANDIDATE, flags) for p, _ in plan.confirm]
            exact += [(tail(e), N_FLAGS + position, flags) for _, e in plan.confirm]
        self.db = _shared(tuple(entries))
        self.confirm_db = _shared(tuple(exact)) if exact else None

    def _twin(self, flag_expression: str) -> int | None:
        """The position of the first rule that runs exactly ``flag_expression`` on the engine."""
        twin = f"(?:{flag_expression.removesuffix(_EOL)}){_EOL}"
        for position, plan in enumerate(self.plans):
            if plan.mode == MODE_ENGINE and plan.expressions == (twin,) and not plan.caseless:
                return None if plan.confirm else position
        return None

    def scan(self, data: bytes) -> list[int]:
        """Every hit as ``end << ID_BITS | id``; ascending and once each in the native build."""
        if LineEndHits is not None:
            return _scan_native(self.db, self.confirm_db, data, self.also)[0]
        hits, candidates = _scan_python(self.db, data)
        if candidates and self.confirm_db is not None:
            hits += confirm_hits(self.confirm_db, data, candidates)
        return hits

    def scan_by_line(self, data: bytes) -> tuple[list[int], dict[int, int]]:
        """``scan``'s hits ascending, and line end -> the smallest id that hit the line."""
        if LineEndHits is not None:
            return _scan_native(self.db, self.confirm_db, data, self.also)
        hits = self.scan(data)
        hits.sort()
        return hits, _first_ids(hits)


def _first_ids(hits: list[int]) -> dict[int, int]:
    """Line end -> its smallest id, from ascending ``hits``; filled by descending end (the
    report's rule order follows it)."""
    return dict(map(divmod, reversed(hits), repeat(1 << ID_BITS)))  # the smallest id wins


def _as_is(expression: str) -> str:
    return expression


def _untailed(expression: str) -> str:
    """``expression`` without a final ``[^\\n]*$``: the same lines match, and the hit's end is
    mapped to its line's newline. Flags keep theirs (an ESC repeats within a line)."""
    head = expression.removesuffix(_EOL)
    if head == expression or not head or (len(head) - len(head.rstrip("\\"))) % 2:
        return expression  # no tail, or its ``[`` is escaped
    return head


def _shared(entries: tuple[tuple[str, int, int], ...]) -> Any:
    """The compiled database of ``entries``, shared by every rule set that has the same."""
    with _DATABASES_LOCK:
        db = _DATABASES.get(entries)
        if db is None:
            db = _compile(*zip(*entries, strict=True))
            if len(_DATABASES) >= 64:
                _DATABASES.clear()
            _DATABASES[entries] = db
    return db
