"""Prototype: one Hyperscan pass per chunk for every rule (issue 14, deliverables 3 and 4).

    .venv/bin/python benchmarks/engine_prototype.py [--mb 100] [--quick] [--stream-gb 1]
        [--repeats 3] [--input v2|project|quiet|both|all] [--skip-current] [--no-check]

Self-contained: the engine, the fast classifier built on it, a bytes reference it is checked
against, the seed baseline (the seed's 12 literals), the 52-literal baseline of
docs/benchmarks.md, the current ``autofix`` classifier, and the measurements (throughput on
100 MB, peak extra RSS on a 1 GB stream, p99 of a 16 KB parse). Every ratio is against the
seed baseline run in the same process on the same bytes. Measurements only: nothing here fails.

The fast path, per chunk of complete lines (bytes, never decoded as a whole):
1. ``\\r\\n`` -> ``\\n`` (only if the chunk holds ``\\r\\n``); count lines (``bytes.count``).
2. One ``hs_scan`` over the raw chunk with a single database: every rule, rewritten so each match
   runs to the end of its line (``(?:rule)[^\\n]*$``, multi-line mode), plus *flag* patterns that
   mark lines needing the slow path: ``\\r`` or ESC/CSI (terminal control), invalid UTF-8, longer
   than the cap, Python/Node warning heads (they open a block). A match's end offset is then the
   offset of its line's ``\\n``: the line's key. The callback appends ``end << 10 | id``: nothing
   else runs per match.
3. In bulk (C loops): reverse sort, ``dict(map(divmod, hits, repeat(1024)))``: per line the
   smallest id, i.e. the first rule in priority order (flags have the smallest ids). ``Counter``
   of the values gives every rule's line count.
4. Only the lines whose winner is not a plain noise rule are visited in Python, in order: flagged
   lines are repaired (UTF-8), normalised (ANSI, ``\\r`` overwrite), capped, and rescanned together
   in one more ``hs_scan``; error lines open blocks; an open block walks the lines after it.
   Lines without a hit are never looked at: they are counted as neutral.
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import re
import resource
import statistics
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from itertools import repeat
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "plugins"))
sys.path.insert(0, str(ROOT / "benchmarks"))

import regex  # noqa: E402

from autofix.classify.blocks import BlockTracker, block_kind  # noqa: E402
from autofix.patterns import engine as hs  # noqa: E402
from autofix.patterns.compiled import compile_rules  # noqa: E402
from autofix.patterns.engine import (  # noqa: E402
    _BAD_UTF8,
    _EOL,
    _ops,
    _python_only_syntax,
    long_line_ends,
)
from autofix.patterns.loader import DEFAULT_RULES  # noqa: E402
from autofix.patterns.model import PatternSettings, Rule  # noqa: E402
from autofix.patterns.redos import can_match_newline, required_literals  # noqa: E402

try:
    import hyperscan
except ImportError:  # the fallback is measured instead
    hyperscan = None

CHUNK = 1 << 20
MAX_LINE = 4096  # PatternSettings.max_line_length: rules see the first 4096 characters
ID_BITS = 10
ID_MASK = (1 << ID_BITS) - 1

# ---------------------------------------------------------------------------------------------
# The seed's algorithm, exactly as the seed describes it: per line, skip on a noise substring,
# error on an indicator substring; 12 literals. Neither docs/benchmarks.md nor
# benchmarks/classify_throughput.py (nor git history, DESIGN.md or the issues) lists the seed's
# literals, so these 12 are taken from the examples issue 2 quotes as the seed's noise and its
# error indicators. Any 12 short literals cost the same per line (see --seed-variants).
SEED_NOISE = ["DeprecationWarning", "ExperimentalWarning", "npm warn", "Cloning into", "Compiling"]
SEED_INDICATORS = [
    "Traceback",
    "Error:",
    "FAILED",
    "npm ERR!",
    "fatal:",
    "panic:",
    "command not found",
]
SEED_VARIANT = (
    ["DeprecationWarning", "ExperimentalWarning", "npm warn", "Running pip as the 'root' user"],
    [
        "Traceback",
        "Error:",
        "FAILED",
        "npm error",
        "fatal:",
        "panic:",
        "Segmentation fault",
        "Permission denied",
    ],
)


def run_seed(
    data: bytes, noise: list[str] = SEED_NOISE, indicators: list[str] = SEED_INDICATORS
) -> int:
    errors = 0
    for offset in range(0, len(data), CHUNK):
        for line in data[offset : offset + CHUNK].decode("utf-8", "replace").split("\n"):
            if any(n in line for n in noise):
                continue
            if any(i in line for i in indicators):
                errors += 1
    return errors


def baseline52_needles() -> tuple[list[str], list[str]]:
    """docs/benchmarks.md's baseline: the literals of the 52 rules it used."""
    from classify_throughput import baseline52_needles as needles

    return needles()


# ---------------------------------------------------------------------------------------------
# Rules: the built-ins plus 10 realistic user rules (literals and regexes, one the engine can't
# take: a lookbehind, which goes to the guarded `regex` fallback).

USER_RULES = [
    Rule(
        id="u-browserslist",
        kind="noise",
        type="substring",
        pattern="Browserslist: caniuse-lite is outdated",
        reason="b",
    ),
    Rule(
        id="u-retry", kind="noise", type="regex", pattern=r"^retrying request \d+/\d+", reason="b"
    ),
    Rule(
        id="u-migration", kind="error", type="regex", pattern=r"^migration \d+ failed: ", reason="b"
    ),
    Rule(
        id="u-license",
        kind="error",
        type="substring",
        pattern="LICENSE CHECK FAILED",
        reason="b",
        case_sensitive=True,
    ),
    Rule(
        id="u-cache",
        kind="noise",
        type="regex",
        pattern=r"\bcache (?:hit|miss) for [\w./-]+",
        reason="b",
    ),
    Rule(
        id="u-http-5xx",
        kind="error",
        type="regex",
        pattern=r"\bHTTP/[12](?:\.[01])?\" 5\d\d\b",
        reason="b",
        case_sensitive=True,
    ),
    # \s can match a newline: the engine may report a match spanning lines, so hits are verified.
    Rule(
        id="u-node-internal",
        kind="noise",
        type="regex",
        pattern=r"^\s+at .*\(node:internal/",
        reason="b",
        case_sensitive=True,
    ),
    Rule(
        id="u-maven",
        kind="error",
        type="regex",
        pattern=r"^\[(?:ERROR|FATAL)\] ",
        reason="b",
        case_sensitive=True,
    ),
    # A lookbehind: not for Hyperscan or RE2; its literal prefilters, `regex` with a timeout decides.
    Rule(
        id="u-deadlock",
        kind="error",
        type="regex",
        pattern=r"(?<!no )deadlock detected",
        reason="b",
    ),
    Rule(
        id="u-flaky",
        kind="noise",
        type="regex",
        pattern=r"^flaky test .+ passed on retry \d+$",
        reason="b",
    ),
]

# Built-ins whose stdlib form uses a lookbehind or an end anchor inside an alternation, rewritten
# for the engine: same verdict per line (checked against the stdlib form by --check), match runs
# to the end of the line. They now live in the rules' records: builtin_rules.yaml's `engine_form`.
ENGINE_FORMS = {rule.id: rule.engine_form for rule in DEFAULT_RULES if rule.engine_form}

# Flag patterns (smallest ids: they win the per-line minimum). Each runs to the end of its line.
F_CRLF = 0  # the chunk holds "\r\n" (reported once per scan): replace, scan again
F_SLOW = 1  # terminal control (\r, ESC, CSI), invalid UTF-8, or past the cap: the slow path
F_WARNHEAD = 2  # a Python or Node warning head: its noise line opens a two-line block
N_FLAGS = 3
# In the main database: ``\r``/ESC/CSI lines and warning heads (cheap: ~0.3 ms/MB together).
# Invalid UTF-8 and long lines are found outside it: a bounded repeat of 4097 bytes costs the
# engine ~2 ms/MB, the 21 UTF-8 witnesses ~0.9 ms/MB; ``bytes.decode`` (0.35 ms/MB, only for
# non-ASCII chunks) and one ``find`` per 2 KB (~0.05 ms/MB) do the same job.
FLAG_PATTERNS = [
    (F_CRLF, r"\r\n"),  # with HS_FLAG_SINGLEMATCH
    (F_SLOW, r"[\r\x1b]" + _EOL),
    (F_SLOW, r"\xc2\x9b" + _EOL),  # U+009B, the one-byte CSI, in UTF-8
    (F_WARNHEAD, r"\.py:\d+: [A-Za-z]*Warning: " + _EOL),
    (F_WARNHEAD, r"^\(node:\d+\) " + _EOL),
]


# ---------------------------------------------------------------------------------------------
# Compiling rules for the engine.

EXACT, VERIFY, FALLBACK = "exact", "verify", "fallback"
# The integrated engine's own shape checks (plugins/autofix/patterns/engine.py).
_UNSUPPORTED_OPS = hs._UNSUPPORTED | {hs._UNSUPPORTED_REPEAT}


@dataclass
class EngineRule:
    position: int
    rule: Rule
    mode: str  # EXACT: the engine's verdict stands; VERIFY/FALLBACK: a hit is a candidate
    expressions: list[str]  # what the engine runs (EOL-extended), one id
    caseless: bool
    why: str = ""  # why not EXACT
    ref: Any = None  # bytes pattern that decides a candidate (and the reference)
    timeout: float | None = None  # FALLBACK: `regex` with a timeout

    @property
    def is_error(self) -> bool:
        return self.rule.kind == "error"


def _ref_pattern(rule: Rule, trusted: bool) -> tuple[Any, float | None]:
    """The rule on bytes: Python semantics on the line's UTF-8 bytes (ASCII classes and case)."""
    flags = 0 if rule.case_sensitive else re.IGNORECASE
    source = re.escape(rule.pattern) if rule.type == "substring" else rule.pattern
    if trusted:
        return re.compile(source.encode(), flags), None
    return regex.compile(source.encode(), flags | regex.V0), 0.025


def _eol(expr: str) -> str:
    return f"(?:{expr})[^\\n]*$"


def engine_rule(position: int, rule: Rule, trusted: bool) -> EngineRule:
    caseless = not rule.case_sensitive
    ref, timeout = _ref_pattern(rule, trusted)
    if trusted and rule.id in ENGINE_FORMS:
        return EngineRule(position, rule, EXACT, [ENGINE_FORMS[rule.id]], caseless, "", ref)
    if rule.type == "substring":
        return EngineRule(position, rule, EXACT, [_eol(re.escape(rule.pattern))], caseless, "", ref)
    pattern = rule.pattern
    why = ""
    try:
        ops = _ops(hs._PARSER.parse(pattern, 0 if rule.case_sensitive else re.IGNORECASE))
    except Exception:  # `regex`-only syntax
        ops, why = {"?"}, "syntax the stdlib parser can't read"
    bad = ops & _UNSUPPORTED_OPS
    if bad:
        why = "lookaround, backreference, atomic or possessive: " + ", ".join(sorted(bad))
    quirk = _python_only_syntax(pattern)
    if quirk and not why:
        why = f"{quirk} means something else to the engine"
    if not why and "AT_END" in ops and not (pattern.endswith("$") and pattern.count("$") == 1):
        why = "an end anchor inside the pattern (the engine can't extend it to the line end)"
    if not why:
        expr = pattern if pattern.endswith("$") else _eol(pattern)
        try:
            _compile([expr], [0], [_hs_flags(caseless)])
        except Exception as exc:  # the engine's own verdict on its syntax
            why = f"engine: {exc}"
        else:
            crossing = can_match_newline(pattern, rule.case_sensitive)
            mode = VERIFY if crossing else EXACT
            return EngineRule(
                position,
                rule,
                mode,
                [expr],
                caseless,
                "can match a newline: hits are verified" if crossing else "",
                ref,
                timeout,
            )
    # Not for the engine: its required literals find candidate lines, `regex` (timeout) decides.
    literals = required_literals(pattern, rule.case_sensitive) or []
    exprs = [_eol(re.escape(lit)) for lit in literals if len(lit) >= 2]
    return EngineRule(position, rule, FALLBACK, exprs, True, why, ref, timeout or 0.025)


def _hs_flags(caseless: bool) -> int:
    assert hyperscan is not None
    return hyperscan.HS_FLAG_MULTILINE | (hyperscan.HS_FLAG_CASELESS if caseless else 0)


def _compile(exprs: list[str], ids: list[int], flags: list[int]) -> Any:
    assert hyperscan is not None
    db = hyperscan.Database(mode=hyperscan.HS_MODE_BLOCK)
    db.compile(
        expressions=[e.encode() for e in exprs],
        ids=ids,
        elements=len(exprs),
        flags=flags,
    )
    return db


class Engine:
    """All rules (user rules first, then built-ins, in order) and the flags, in one database."""

    def __init__(self, rules: list[tuple[Rule, bool]], max_line: int = MAX_LINE) -> None:
        started = time.perf_counter()
        self.max_line = max_line
        self.rules = [engine_rule(p, rule, trusted) for p, (rule, trusted) in enumerate(rules)]
        exprs: list[str] = []
        ids: list[int] = []
        flags: list[int] = []
        for flag, expr in FLAG_PATTERNS:
            exprs.append(expr)
            ids.append(flag)
            single = hyperscan.HS_FLAG_SINGLEMATCH if flag == F_CRLF else 0
            flags.append(_hs_flags(False) | single)
        for er in self.rules:
            for expr in er.expressions:
                exprs.append(expr)
                ids.append(N_FLAGS + er.position)
                flags.append(_hs_flags(er.caseless))
        assert len(self.rules) + N_FLAGS <= ID_MASK
        assert hyperscan is not None
        self.db = hyperscan.Database(mode=hyperscan.HS_MODE_BLOCK)
        self.db.compile(
            expressions=[e.encode() for e in exprs],  # \xNN escapes stay text: one byte each
            ids=ids,
            elements=len(exprs),
            flags=flags,
        )
        self.bad_utf8 = _compile(
            _BAD_UTF8, [F_SLOW] * len(_BAD_UTF8), [_hs_flags(False)] * len(_BAD_UTF8)
        )
        self.compile_seconds = time.perf_counter() - started
        n = len(self.rules)
        self.is_error = [False] * N_FLAGS + [er.is_error for er in self.rules]
        self.rule_ids = ["<crlf>", "<slow>", "<warn-head>"] + [er.rule.id for er in self.rules]
        # Ids whose winning a line needs Python: flags, errors, verified and fallback rules.
        self.special = frozenset(
            [F_SLOW, F_WARNHEAD]
            + [N_FLAGS + er.position for er in self.rules if er.is_error or er.mode != EXACT]
        )
        self.plain_noise = [
            N_FLAGS + er.position for er in self.rules if not er.is_error and er.mode == EXACT
        ]
        self.n_ids = n + N_FLAGS

    def scan(self, data: bytes) -> list[int]:
        return hs.scan_hits(self.db, data)

    def invalid_utf8_ends(self, data: bytes) -> set[int]:
        """Ends of the lines Python's strict UTF-8 decoder rejects (``data`` failed to decode)."""
        ends: set[int] = set()
        add = ends.add
        self.bad_utf8.scan(data, match_event_handler=lambda i, s, e, f, c: add(e))
        return ends

    def line_ids(self, line: bytes) -> list[int]:
        """Every id that matches one (clean) line, ascending: the per-line slow path."""
        return sorted({v & ID_MASK for v in self.scan(line)})

    def decide(self, line: bytes, ids: list[int]) -> tuple[int, bool]:
        """First rule (priority order) among ``ids`` that really matches; (-1, False): none.
        The bool: a fallback regex timed out (the line then counts as an error: fail safe)."""
        for i in ids:
            if i < N_FLAGS:
                continue
            er = self.rules[i - N_FLAGS]
            if er.mode == EXACT:
                return i, False
            try:
                found = (
                    er.ref.search(line, timeout=er.timeout)
                    if er.timeout is not None
                    else er.ref.search(line)
                )
            except TimeoutError:
                return i, True
            if found is not None:
                return i, False
        return -1, False


# ---------------------------------------------------------------------------------------------
# Normalisation of the few lines that need it, on bytes, in bulk.

_ANSI_B = re.compile(
    rb"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b\n]*(?:\x07|\x1b\\)?|\x1b[@-Z\\-_]"
    rb"|\xc2\x9b[0-?]*[ -/]*[@-~]"
)


def _overwrite(line: bytes) -> bytes:
    """A bare ``\\r`` returns to column 0, so later text overwrites earlier text, by characters.

    Column c shows the last segment longer than c: walk the segments backwards, keeping the
    longest seen. A redrawn bar (every segment as long as the last) costs one ``max``.
    """
    ascii_only = line.isascii()
    segments: list[Any] = line.split(b"\r") if ascii_only else line.decode().split("\r")
    shown = segments[-1]
    cover = len(shown)
    if cover < max(map(len, segments)):
        for segment in reversed(segments[:-1]):
            if len(segment) > cover:
                shown += segment[cover:]
                cover = len(segment)
    return shown if ascii_only else shown.encode("utf-8", "surrogatepass")


def clean_line(line: bytes, max_line: int, valid: bool = False) -> bytes:
    """What a rule sees: UTF-8 repaired, ANSI stripped, ``\\r`` overwrites applied, capped.
    Each step only when the line needs it (a ``find`` each: memchr speed)."""
    if not valid and not line.isascii():
        try:
            line.decode("utf-8")
        except UnicodeDecodeError:  # per line is the same as per chunk: "\\n" ends a bad sequence
            line = line.decode("utf-8", "replace").encode("utf-8")
    if b"\x1b" in line or b"\xc2\x9b" in line:
        line = _ANSI_B.sub(b"", line)
    if b"\r" in line:
        line = _overwrite(line)
    if len(line) > max_line:  # bytes >= characters: only such lines can need the cap
        line = line.decode("utf-8", "replace")[:max_line].encode("utf-8", "surrogatepass")
    return line


def clean_lines(lines: list[bytes], max_line: int, valid: bool = False) -> list[bytes]:
    return [clean_line(line, max_line, valid) for line in lines]


# ---------------------------------------------------------------------------------------------
# The fast classifier.


@dataclass
class Report:
    noise_lines: int = 0
    neutral_lines: int = 0
    error_lines: int = 0
    rule_hits: dict[str, int] = field(default_factory=dict)
    blocks: list[str] = field(default_factory=list)
    blocks_dropped: int = 0
    warnings: list[str] = field(default_factory=list)

    @property
    def total_lines(self) -> int:
        return self.noise_lines + self.neutral_lines + self.error_lines


class FastClassifier:
    """Chunks of bytes in, the same counts as autofix's Classifier out (rules on UTF-8 bytes)."""

    def __init__(
        self,
        engine: Engine,
        max_blocks: int = 20,
        decide_lines: Callable[[bytes], dict[int, int]] | None = None,
    ) -> None:
        self.e = engine
        self._decide_lines = decide_lines  # the reference: per line in Python (for --check)
        self.counts: Counter[int] = Counter()
        self.lines = 0
        self.noise_extra = 0  # lines inside noise blocks
        self.errors = 0
        self.max_blocks = max_blocks
        self.blocks: list[str] = []
        self.dropped = 0
        self.tracker = BlockTracker()
        self.block_noise = False
        self.block_rule: int = -1
        self.pending_blank = 0
        self.partial = bytearray()
        self.discarding = False
        self.max_bytes = engine.max_line * 4 + 4
        self.warnings: list[str] = []
        self._valid = True

    def feed(self, chunk: bytes) -> None:
        data = bytes(chunk)
        if self.discarding:
            cut = data.find(b"\n")
            if cut == -1:
                return
            self.discarding = False
            data = data[cut + 1 :]
            if self.partial:
                data = b"\n" + data
        end = data.rfind(b"\n")
        if end == -1:
            self.partial += data
            self._bound()
            return
        if self.partial:
            end += len(self.partial)
            data = bytes(self.partial) + data
            self.partial.clear()
        self.partial += data[end + 1 :]
        self._bound()
        self._process(data[: end + 1] if end + 1 < len(data) else data)

    def _bound(self) -> None:
        if len(self.partial) > self.max_bytes:
            del self.partial[self.max_bytes :]
            self.discarding = True

    def finish(self) -> Report:
        if self.partial:
            self._process(bytes(self.partial) + b"\n")
            self.partial.clear()
        self._end_block()
        e = self.e
        hits = {e.rule_ids[i]: c for i, c in self.counts.items() if c and i >= N_FLAGS}
        noise = sum(c for i, c in self.counts.items() if i >= N_FLAGS and not e.is_error[i])
        noise += self.noise_extra
        return Report(
            noise_lines=noise,
            neutral_lines=self.lines - noise - self.errors,
            error_lines=self.errors,
            rule_hits=hits,
            blocks=self.blocks,
            blocks_dropped=self.dropped,
            warnings=self.warnings,
        )

    # ---- one chunk of whole lines -------------------------------------------------------

    def _process(self, data: bytes) -> None:
        self.lines += data.count(b"\n")
        e = self.e
        if self._decide_lines is not None:  # the reference: every hit line settled in order
            if b"\r\n" in data:
                data = data.replace(b"\r\n", b"\n")
            best, clean = self._decide_lines(data)
            self.counts.update(best.values())
            self._walk(data, best, clean, sorted(best), len(data), final=True)
            return
        else:
            best, forced = self._scan(data)
            if F_CRLF in best.values():  # "\r\n" is a newline: rare, so replace and scan again
                data = data.replace(b"\r\n", b"\n")
                best, forced = self._scan(data)
                best = {t: (F_SLOW if i == F_CRLF else i) for t, i in best.items()}
            if not best and not forced:
                if self.tracker.open:
                    self._walk(data, {}, {}, 0, len(data))
                return
            for t in forced:
                best[t] = F_SLOW
            clean: dict[int, bytes] = {}
            if F_SLOW in best.values():
                self._slow_lines(data, best, clean)
        special = e.special
        todo = sorted(t for t, i in best.items() if i in special)
        self.counts.update(best.values())
        if not todo and not self.tracker.open:
            return
        self._walk(data, best, clean, todo, len(data))

    def _scan(self, data: bytes) -> tuple[dict[int, int], list[int]]:
        """Line end -> first id (C loops only); and the lines the engine can't see as bad."""
        e = self.e
        forced = long_line_ends(data, e.max_line)
        self._valid = True
        if not data.isascii():
            try:
                data.decode("utf-8")
            except UnicodeDecodeError:
                forced += e.invalid_utf8_ends(data)
                self._valid = False
        hits = e.scan(data)
        hits.sort(reverse=True)  # per line, descending ids: the dict keeps the last, the first rule
        return dict(map(divmod, hits, repeat(1 << ID_BITS))), forced

    def _slow_lines(self, data: bytes, best: dict[int, int], clean: dict[int, bytes]) -> None:
        """Flagged lines: repair, normalise, cap, rescan together; their raw hits are dropped."""
        ends = [t for t, i in best.items() if i == F_SLOW]
        raw = [data[data.rfind(b"\n", 0, t) + 1 : t] for t in ends]
        fixed = clean_lines(raw, self.e.max_line, self._valid)
        batch = b"\n".join(fixed) + b"\n"
        firsts: dict[int, int] = {}
        for v in self.e.scan(batch):
            t, i = v >> ID_BITS, v & ID_MASK
            if i == F_SLOW:
                continue  # a cleaned line may still be long in bytes, or hold a stray ESC
            if i < firsts.get(t, 1 << 30):
                firsts[t] = i
        position = -1
        for t, line in zip(ends, fixed, strict=True):
            position += len(line) + 1  # this line's newline in the batch
            clean[t] = line
            found = firsts.get(position)
            if found is None:
                del best[t]
            else:
                best[t] = found

    # ---- in order: lines that need Python, and the lines an open block takes -------------

    def _line(self, data: bytes, clean: dict[int, bytes], start: int, t: int) -> bytes:
        found = clean.get(t)
        return data[start:t] if found is None else found

    def _walk(
        self,
        data: bytes,
        best: dict[int, int],
        clean: dict[int, bytes],
        todo: Any,
        stop: int,
        final: bool = False,
    ) -> None:
        counts = self.counts
        tracker = self.tracker
        cursor = 0  # start of the next line not yet settled in order
        find = data.find
        for t in todo if todo else ():
            if t < cursor:
                continue  # taken by a block
            start = data.rfind(b"\n", 0, t) + 1
            while tracker.open and cursor < start:  # lines between: offered to the open block
                end = find(b"\n", cursor)
                self._offer(self._line(data, clean, cursor, end), best.get(end))
                cursor = end + 1
            line = self._line(data, clean, start, t)
            i = best[t]
            counts[i] -= 1  # settled here, not by the bulk count
            if tracker.open and self._offer(line, i, counted=True):
                cursor = t + 1
                continue
            self._decide(line, i, final)
            cursor = t + 1
        while tracker.open and cursor < stop:
            end = find(b"\n", cursor)
            self._offer(self._line(data, clean, cursor, end), best.get(end))
            cursor = end + 1

    def _offer(self, raw: bytes, i: int | None, counted: bool = False) -> bool:
        """Offer a line to the open block; True if it joined (counts fixed up), else closed."""
        line = raw.decode("utf-8", "replace")
        if self.tracker.offer(line):
            if i is not None and not counted:
                self.counts[i] -= 1  # its rule no longer decides it
            if not line.strip():
                self.pending_blank += 1
                return True
            pending, self.pending_blank = self.pending_blank, 0
            if self.block_noise:
                self.noise_extra += 1 + pending
            else:
                self.errors += 1 + pending
                if self.blocks and self.block_rule >= 0 and len(self.blocks[-1]) < 500:
                    self.blocks[-1] += "\n" + line[:300]
            return True
        self._end_block()
        return False

    def _end_block(self) -> None:
        self.pending_blank = 0  # trailing blank lines of a block are neutral
        self.tracker.close()

    def _decide(self, raw: bytes, i: int, final: bool = False) -> None:
        e = self.e
        if final:
            timed_out = False
        elif i == F_WARNHEAD or (i >= N_FLAGS and e.rules[i - N_FLAGS].mode != EXACT):
            i, timed_out = e.decide(raw, e.line_ids(raw))
        else:
            timed_out = False
        if i < 0:
            return  # neutral after all (a verified or fallback rule did not match)
        self.counts[i] += 1
        line = raw.decode("utf-8", "replace")
        is_error = e.is_error[i] or timed_out
        kind = block_kind(line, is_error)
        if is_error:
            if timed_out:
                self.counts[i] -= 1
            self.errors += 1
            if len(self.blocks) < self.max_blocks:
                self.blocks.append(f"[{e.rule_ids[i]}] {line[:300]}")
            else:
                self.dropped += 1
            self.block_noise = False
            self.block_rule = i
        elif kind is not None:
            self.block_noise = True
            self.block_rule = -1
        if kind is not None:
            self.tracker.start(kind, line)


# ---------------------------------------------------------------------------------------------
# The reference: every line in Python, the rules as bytes regexes in priority order.


def reference_best(engine: Engine) -> Callable[[bytes], tuple[dict[int, int], dict[int, bytes]]]:
    """Per line: clean it, then the first rule (as a bytes regex) that matches, in order."""

    def decide(data: bytes) -> tuple[dict[int, int], dict[int, bytes]]:
        best: dict[int, int] = {}
        clean: dict[int, bytes] = {}
        position = 0
        for raw in data.split(b"\n")[:-1]:
            end = position + len(raw)
            position = end + 1
            line = clean_lines([raw], engine.max_line)[0]
            if line != raw:
                clean[end] = line
            for er in engine.rules:
                try:
                    found = (
                        er.ref.search(line, timeout=er.timeout)
                        if er.timeout
                        else er.ref.search(line)
                    )
                except TimeoutError:
                    found = True
                if found:
                    best[end] = N_FLAGS + er.position
                    break
        return best, clean

    return decide


# ---------------------------------------------------------------------------------------------
# Inputs. "project": benchmarks/classify_throughput.build_input, unchanged (docs/benchmarks.md's
# 100 MB; 1 in 12 lines a tqdm bar with its own "\r"). "v2": the same bulk, noise and real
# capture blocks, plus what long real stderr also holds: ANSI-coloured compiler and test output,
# progress bars that redraw many times on one line (\r), long JSON log lines (some past the
# 4096-character cap), non-UTF-8 file names, Node deprecation warnings with their hint, Python
# warnings with their source line, gcc warnings with source and caret lines, and lines for the
# user rules.


def _v2_extra(rng: random.Random, n: int) -> bytes:
    from classify_throughput import _name

    a, b = _name(rng), _name(rng)
    kind = rng.randrange(12)
    if kind == 0:
        return (
            b"\x1b[1m\x1b[33mwarning\x1b[0m\x1b[1m: unused variable: `%s`\x1b[0m\n"
            b"  \x1b[1m\x1b[34m--> \x1b[0msrc/%s.rs:%d:9\n" % (a.encode(), b.encode(), n % 900)
        )
    if kind == 1:
        ms = rng.randrange(1, 90)
        return f"\x1b[32m\u2713\x1b[39m {a} renders {b} \x1b[2m({ms} ms)\x1b[22m\n".encode()
    if kind == 2:
        total = rng.randrange(5, 90)
        steps = rng.randrange(10, 60)
        bars = []
        for k in range(1, steps + 1):
            done = total * k / steps
            fill = int(40 * k / steps)
            rate = rng.uniform(1, 40)
            bar = "\u2501" * fill + "\u2578" * (fill < 40) + " " * (40 - fill - (fill < 40))
            bars.append(
                f"   {bar} {done:.1f}/{total:.1f} MB {rate:.1f} MB/s eta 0:00:{(steps - k) % 60:02d}"
            )
        return (
            f"Downloading {a}-{n % 9}.{n % 40}.0-py3-none-any.whl ({total}.0 MB)\n".encode()
            + ("\r".join(bars) + "\n").encode()
        )
    if kind == 3:
        items = ",".join(
            f'{{"name":"{_name(rng)}","size":{rng.randrange(10**6)},"chunks":[{rng.randrange(99)}]}}'
            for _ in range(rng.randrange(20, 140))
        )
        return f'{{"level":"debug","event":"bundle stats","assets":[{items}]}}\n'.encode()
    if kind == 4:
        return b"  adding '%s/r\xe9sum\xe9_%d.txt' (latin-1 name)\n" % (a.encode(), n)
    if kind == 5:
        return (
            b"(node:%d) [DEP0040] DeprecationWarning: The `punycode` module is deprecated. "
            b"Please use a userland alternative instead.\n"
            b"(Use `node --trace-deprecation ...` to show where the warning was created)\n"
            % (1000 + n % 9000)
        )
    if kind == 6:
        return (
            b"/usr/lib/python3/dist-packages/%s.py:%d: DeprecationWarning: "
            b"pkg_resources is deprecated as an API\n  import pkg_resources\n"
            % (a.encode(), n % 700)
        )
    if kind == 7:
        line = n % 400 + 1
        return (
            b"src/%s.c:%d:9: warning: unused variable 'tmp' [-Wunused-variable]\n"
            b"  %d |     int tmp = 0;\n      |         ^~~\n" % (a.encode(), line, line)
        )
    if kind == 8:
        return b"cache %s for %s/%s.o\n" % (rng.choice((b"hit", b"miss")), a.encode(), b.encode())
    if kind == 9:
        return b"    at Module._compile (node:internal/modules/cjs/loader:%d:14)\n" % (n % 2000)
    if kind == 10:
        return b"retrying request %d/3 after %d ms\n" % (rng.randrange(1, 4), rng.randrange(900))
    return b"flaky test %s passed on retry %d\n" % (a.encode(), rng.randrange(1, 4))


def build_v2(megabytes: float, seed: int = 7) -> bytes:
    from classify_throughput import _bulk_line, _noise_line, corpus_lines

    blocks = corpus_lines()
    rng = random.Random(seed)
    out: list[bytes] = []
    size = 0
    target = int(megabytes * 1e6)
    n = 0
    while size < target:
        n += 1
        roll = rng.random()
        if roll < 0.012:
            piece = rng.choice(blocks)
        elif roll < 0.152:
            piece = _noise_line(rng, n).encode() + b"\n"
        elif roll < 0.19:
            piece = _v2_extra(rng, n)
        else:
            line = _bulk_line(rng, n)
            while "\r" in line and rng.random() < 0.9:  # bars redraw on one line (kind 2)
                line = _bulk_line(rng, n)
            piece = line.encode() + b"\n"
        out.append(piece)
        size += len(piece)
    return b"".join(out)[:target].rsplit(b"\n", 1)[0] + b"\n"


def build_quiet(megabytes: float, seed: int = 5) -> bytes:
    """Best case, labelled as such: the project's bulk lines only (compiler commands, CMake,
    webpack, Docker, pip, TAP "ok"), no noise, no errors, no progress bars: almost no hits."""
    from classify_throughput import _bulk_line

    rng = random.Random(seed)
    out: list[str] = []
    size = 0
    n = 0
    while size < megabytes * 1e6:
        n += 1
        line = _bulk_line(rng, n)
        if "\r" in line or "Running setup.py" in line:
            continue
        out.append(line)
        size += len(line) + 1
    return ("\n".join(out) + "\n").encode()


def build_project(megabytes: float) -> bytes:
    from classify_throughput import build_input

    return build_input(megabytes)


def describe(data: bytes) -> str:
    lines = data.count(b"\n")
    chunk = [data[i : i + CHUNK] for i in range(0, len(data), CHUNK)]
    cr = sum(1 for c in chunk for line in c.split(b"\n") if b"\r" in line)
    esc = sum(1 for c in chunk for line in c.split(b"\n") if b"\x1b" in line)
    longs = sum(1 for c in chunk for line in c.split(b"\n") if len(line) > MAX_LINE)
    bad = 0
    for c in chunk:
        try:
            c.decode()
        except UnicodeDecodeError:
            bad += sum(1 for line in c.split(b"\n") if not _valid(line))
    return (
        f"{len(data) / 1e6:.1f} MB, {lines} lines, {len(data) / lines:.0f} B/line; lines with "
        f"\\r {cr}, ESC {esc}, > {MAX_LINE} B {longs}, invalid UTF-8 {bad}"
    )


def _valid(line: bytes) -> bool:
    try:
        line.decode()
        return True
    except UnicodeDecodeError:
        return False


# ---------------------------------------------------------------------------------------------
# Rule sets and runners.


def all_rules() -> tuple[list[tuple[Rule, bool]], Any]:
    """(rule, trusted) in the order autofix checks them on stderr, and autofix's compiled set."""
    compiled = compile_rules(list(USER_RULES), PatternSettings(), "bench", DEFAULT_RULES)
    ordered = compiled.ruleset("", "stderr").rules
    return [(c.rule, c.trusted) for c in ordered], compiled


def run_fast(engine: Engine, data: bytes) -> Report:
    classifier = FastClassifier(engine)
    view = memoryview(data)
    for offset in range(0, len(data), CHUNK):
        classifier.feed(view[offset : offset + CHUNK])
    return classifier.finish()


def run_current(compiled: Any, data: bytes) -> Any:
    from autofix.classify.classifier import Classifier

    classifier = Classifier(compiled)
    view = memoryview(data)
    for offset in range(0, len(data), CHUNK):
        classifier.feed(bytes(view[offset : offset + CHUNK]))
    return classifier.finish()


def timed(fn: Callable[[], Any]) -> tuple[float, float, Any]:
    gc.collect()
    wall, cpu = time.perf_counter(), time.process_time()
    result = fn()
    return time.perf_counter() - wall, time.process_time() - cpu, result


# ---------------------------------------------------------------------------------------------
# Checks: the fast path equals the reference; and how it compares with today's classifier.


def check(engine: Engine, compiled: Any, inputs: dict[str, bytes]) -> None:
    rng = random.Random(3)
    mismatches = 0
    for _ in range(20000):  # the invalid-UTF-8 witnesses flag exactly what decode() rejects
        raw = bytes(
            rng.choice(
                b"ab \x7f\x80\x9f\xa0\xbf\xc0\xc2\xdf\xe0\xe1\xed\xee\xef\xf0\xf1\xf4\xf5\xff"
            )
            for _ in range(rng.randrange(1, 9))
        )
        flagged = bool(engine.invalid_utf8_ends(raw + b"\n"))
        mismatches += flagged != (not _valid(raw))
    print(
        f"check: invalid-UTF-8 flag vs bytes.decode on 20,000 random lines: {mismatches} mismatches"
    )
    from classify_throughput import corpus_lines

    pieces = dict(inputs)
    pieces["captures (each file)"] = b"".join(corpus_lines())
    reference = reference_best(engine)
    for name, data in pieces.items():
        fast = run_fast(engine, data)
        slow = FastClassifier(engine, decide_lines=reference)
        for offset in range(0, len(data), CHUNK):
            slow.feed(data[offset : offset + CHUNK])
        ref = slow.finish()
        same = (fast.noise_lines, fast.neutral_lines, fast.error_lines, fast.rule_hits) == (
            ref.noise_lines,
            ref.neutral_lines,
            ref.error_lines,
            ref.rule_hits,
        )
        cur = run_current(compiled, data)
        print(
            f"check {name}: fast {'==' if same else '!='} reference (bytes, per line) "
            f"[noise/neutral/error {fast.noise_lines}/{fast.neutral_lines}/{fast.error_lines}"
            + ("" if same else f" vs {ref.noise_lines}/{ref.neutral_lines}/{ref.error_lines}")
            + f"]; autofix today: {cur.noise_lines}/{cur.neutral_lines}/{cur.error_lines}"
        )
        if not same:
            diff = {
                k: (fast.rule_hits.get(k), ref.rule_hits.get(k))
                for k in set(fast.rule_hits) | set(ref.rule_hits)
                if fast.rule_hits.get(k) != ref.rule_hits.get(k)
            }
            print(f"   rule hits differing (fast, reference): {diff}")
        cdiff = {
            k: (fast.rule_hits.get(k), cur.rule_hits.get(k))
            for k in set(fast.rule_hits) | set(cur.rule_hits)
            if fast.rule_hits.get(k) != cur.rule_hits.get(k)
        }
        if cdiff:
            print(f"   rule hits differing from autofix today (fast, today): {cdiff}")


# ---------------------------------------------------------------------------------------------
# Measurements.


def run_engine_only(engine: Engine, data: bytes) -> int:
    """The floor of this design in Python: scan + per-line first id, nothing else."""
    lines = 0
    for offset in range(0, len(data), CHUNK):
        chunk = data[offset : offset + CHUNK]
        hits = engine.scan(chunk)
        hits.sort(reverse=True)
        lines += len(dict(map(divmod, hits, repeat(1 << ID_BITS))))
    return lines


def run_scan_only(engine: Engine, data: bytes) -> int:
    """hs_scan with no callback: what the engine costs when no Python runs per match (the
    floor a native helper that keeps per-line first ids in C would start from)."""
    db = engine.db
    for offset in range(0, len(data), CHUNK):
        db.scan(data[offset : offset + CHUNK])
    return 0


def run_re2_set(data: bytes, engine: Engine) -> int:
    """google-re2's Set, one Match per line (the RE2 architecture without a whole-buffer mode)."""
    import re2  # type: ignore[import-not-found]

    options = re2.Options()
    options.max_mem = 64 << 20
    rule_set = re2.Set.SearchSet(options)
    for er in engine.rules:
        source = ENGINE_FORMS.get(er.rule.id) or (
            re.escape(er.rule.pattern) if er.rule.type == "substring" else er.rule.pattern
        )
        if er.mode == FALLBACK:
            source = re.escape((required_literals(er.rule.pattern) or ["\x00"])[0])
        rule_set.Add(("(?i)" if er.caseless else "") + source.replace("[^\\n]*$", ""))
    rule_set.Compile()
    hit = 0
    for offset in range(0, len(data), CHUNK):
        for line in data[offset : offset + CHUNK].split(b"\n"):
            if rule_set.Match(line):
                hit += 1
    return hit


def run_re_alternation(data: bytes, engine: Engine) -> int:
    """The stdlib `re`, all rules as one alternation over each chunk (candidates only)."""
    parts = []
    for er in engine.rules:
        source = re.escape(er.rule.pattern) if er.rule.type == "substring" else er.rule.pattern
        parts.append(f"(?:{source})" if er.rule.case_sensitive else f"(?i:{source})")
    combined = re.compile("|".join(parts).encode(), re.MULTILINE)
    return sum(len(combined.findall(data[o : o + CHUNK])) for o in range(0, len(data), CHUNK))


def _rss_mb() -> float:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def memory_child(gigabytes: float) -> None:
    """Fresh process: stream ``gigabytes`` of v2 input (every line unique) through one classifier.

    Prints: extra peak RSS (ru_maxrss after minus before), rate, lines, RSS before, and the
    largest RSS sampled while streaming minus the RSS before (the setup's own peak can hide
    growth from ru_maxrss)."""
    rules, _ = all_rules()
    engine = Engine(rules)
    chunk = build_v2(1.0)
    classifier = FastClassifier(engine)
    classifier.feed(chunk[:100_000])
    gc.collect()
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    current = _rss_mb()
    highest = current
    started = time.perf_counter()
    fed = 0
    index = 0
    target = int(gigabytes * 1e9)
    while fed < target:
        piece = chunk.replace(b"\n", b" #%d\n" % index)
        classifier.feed(piece)
        fed += len(piece)
        index += 1
        if index % 16 == 0:
            highest = max(highest, _rss_mb())
    report = classifier.finish()
    after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    seconds = time.perf_counter() - started
    print(
        f"{(after - before) / 1024:.1f} {fed / 1e6 / seconds:.1f} {report.total_lines} "
        f"{current:.1f} {highest - current:.1f}"
    )


def latency(data: bytes, samples: int, parse: Callable[[bytes], Any]) -> dict[str, float]:
    size = 16 * 1024
    rng = random.Random(11)
    pieces = [
        data[s : s + size]
        for s in (rng.randrange(0, len(data) - size) for _ in range(samples + 200))
    ]
    for piece in pieces[:200]:
        parse(piece)
    walls, cpus = [], []
    gc.collect()
    for piece in pieces[200:]:
        began, cpu = time.perf_counter(), time.process_time()
        parse(piece)
        cpus.append(time.process_time() - cpu)
        walls.append(time.perf_counter() - began)
    walls.sort()
    cpus.sort()
    p99 = max(0, int(len(walls) * 0.99) - 1)
    return {
        "median": statistics.median(walls) * 1e3,
        "p99": walls[p99] * 1e3,
        "cpu_median": statistics.median(cpus) * 1e3,
        "cpu_p99": cpus[p99] * 1e3,
    }


def main() -> int:
    args = argparse.ArgumentParser()
    args.add_argument("--mb", type=float, default=100.0)
    args.add_argument("--stream-gb", type=float, default=1.0)
    args.add_argument("--repeats", type=int, default=3)
    args.add_argument("--input", choices=("v2", "project", "quiet", "both", "all"), default="all")
    args.add_argument("--quick", action="store_true", help="10 MB, a 0.1 GB stream, 1 repeat")
    args.add_argument("--skip-current", action="store_true", help="not today's classifier")
    args.add_argument("--no-check", action="store_true")
    args.add_argument("--samples", type=int, default=2000, help="16 KB parses timed")
    args.add_argument("--memory-child", type=float, default=None, help=argparse.SUPPRESS)
    opts = args.parse_args()
    if opts.memory_child is not None:
        memory_child(opts.memory_child)
        return 0
    if hyperscan is None:
        print("hyperscan is not installed: nothing to measure (pip install hyperscan)")
        return 1
    megabytes, stream_gb, repeats = (
        (10.0, 0.1, 1) if opts.quick else (opts.mb, opts.stream_gb, opts.repeats)
    )
    print(
        f"load average at start: {' '.join(f'{x:.2f}' for x in os.getloadavg())} "
        f"({os.cpu_count()} CPUs; one thread measured)"
    )
    rules, compiled = all_rules()
    engine = Engine(rules)
    modes = Counter(er.mode for er in engine.rules)
    print(
        f"engine: hyperscan {hyperscan.__version__} (Vectorscan), {len(engine.rules)} rules "
        f"({len(USER_RULES)} user + {len(engine.rules) - len(USER_RULES)} built-in applying to "
        f"stderr), {dict(modes)}; compile {engine.compile_seconds * 1e3:.0f} ms, "
        f"database {engine.db.size() / 1024:.0f} KiB"
    )
    for er in engine.rules:
        if er.mode != EXACT:
            print(f"  {er.rule.id}: {er.mode} ({er.why})")
    if not opts.no_check:
        check(engine, compiled, {"v2 3 MB": build_v2(3), "project 3 MB": build_project(3)})
    names = {"both": ["v2", "project"], "all": ["v2", "project", "quiet"]}.get(
        opts.input, [opts.input]
    )
    builders = {"v2": build_v2, "project": build_project, "quiet": build_quiet}
    for name in names:
        data = builders[name](megabytes)
        mb = len(data) / 1e6
        label = " (best case: almost no hits)" if name == "quiet" else ""
        print(f"\ninput {name}{label}: {describe(data)}")
        noise52, ind52 = baseline52_needles()
        runs: dict[str, Callable[[], Any]] = {
            "seed (12 literals)": partial(run_seed, data),
            "baseline (52 literals)": partial(run_seed, data, noise52, ind52),
            "hyperscan fast path": partial(run_fast, engine, data),
            "hyperscan engine only": partial(run_engine_only, engine, data),
            "hs_scan, no callback": partial(run_scan_only, engine, data),
        }
        if not opts.skip_current:
            runs["autofix today"] = partial(run_current, compiled, data)
        results: dict[str, list[tuple[float, float]]] = {k: [] for k in runs}
        outcome: dict[str, Any] = {}
        for _ in range(repeats):
            for key, fn in runs.items():
                wall, cpu, out = timed(fn)
                results[key].append((wall, cpu))
                outcome[key] = out
        med = {
            k: (statistics.median(w for w, _ in v), statistics.median(c for _, c in v))
            for k, v in results.items()
        }
        seed_w, seed_c = med["seed (12 literals)"]
        b52_w, b52_c = med["baseline (52 literals)"]
        print(
            f"{'':26s} {'MB/s wall':>10s} {'MB/s CPU':>9s}  {'vs seed (wall, CPU)':>20s}  "
            f"{'vs 52-literal baseline':>22s}   (median of {repeats})"
        )
        for key, (w, c) in med.items():
            print(
                f"{key:26s} {mb / w:10.1f} {mb / c:9.1f}  {seed_w / w:9.2f}x {seed_c / c:8.2f}x  "
                f"{b52_w / w:10.2f}x {b52_c / c:9.2f}x"
            )
        fast = outcome["hyperscan fast path"]
        print(
            f"  seed error lines {outcome['seed (12 literals)']}; fast path noise/neutral/error "
            f"{fast.noise_lines}/{fast.neutral_lines}/{fast.error_lines}"
            + (
                f"; autofix today {outcome['autofix today'].noise_lines}/"
                f"{outcome['autofix today'].neutral_lines}/{outcome['autofix today'].error_lines}"
                if "autofix today" in outcome
                else ""
            )
        )
        wall, cpu, _ = timed(partial(run_seed, data, *SEED_VARIANT))
        print(
            f"  another 12-literal seed set: {mb / cpu:.1f} MB/s CPU "
            f"(another choice of 12 literals moves the seed by a few %)"
        )
        if name == "v2":
            small = data[: 2 * CHUNK]
            for label, fn in (
                ("google-re2 Set, per line", run_re2_set),
                ("stdlib re, one alternation", run_re_alternation),
            ):
                try:
                    _, cpu, _ = timed(partial(fn, small, engine))
                    print(
                        f"  {label} (candidates only, 2 MB): {len(small) / 1e6 / cpu:.1f} MB/s CPU"
                    )
                except ImportError as exc:
                    print(f"  {label}: not installed ({exc})")
    child = subprocess.run(
        [sys.executable, __file__, "--memory-child", str(stream_gb)],
        capture_output=True,
        text=True,
        check=True,
    )
    extra, rate, lines, base_rss, sampled = child.stdout.split()
    print(
        f"\nstream {stream_gb:g} GB (v2, every line unique, 1 MB feeds): extra peak RSS {extra} MB "
        f"(ru_maxrss), largest sampled RSS {sampled} MB above the {base_rss} MB before; "
        f"{rate} MB/s wall, {lines} lines"
    )
    v2 = build_v2(20 if not opts.quick else 5)

    def fast_parse(piece: bytes) -> Any:
        c = FastClassifier(engine)
        c.feed(piece)
        return c.finish()

    def current_parse(piece: bytes) -> Any:
        from autofix.classify.classifier import Classifier

        c = Classifier(compiled)
        c.feed(piece)
        return c.finish()

    samples = opts.samples if not opts.quick else 500
    parsers = [("hyperscan fast path", fast_parse)]
    if not opts.skip_current:
        parsers.append(("autofix today", current_parse))
    for label, parse in parsers:
        lat = latency(v2, samples, parse)
        print(
            f"16 KB classify, {label}: median {lat['median']:.3f} ms, p99 {lat['p99']:.3f} ms "
            f"wall; CPU median {lat['cpu_median']:.3f} ms, p99 {lat['cpu_p99']:.3f} ms"
        )
    print(f"load average at end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
