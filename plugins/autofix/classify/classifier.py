"""The streaming classifier: bytes or lines in, counts and the first error blocks out.

With the engine (patterns/engine.py), each chunk of whole lines is scanned once, as bytes, for
every rule; per line the smallest id wins (the first rule in order). Lines won by a plain noise
rule are counted in bulk, lines without a hit are only counted, and Python visits only the
rest, in order: error lines, summaries, retry notices, warning heads, lines with terminal
control (normalised, then scanned again), rules the engine only prefilters, and the lines an
open block takes.

The fallback (no ``hyperscan``): each chunk is decoded, normalised and lower-cased (ASCII)
once; one Aho–Corasick pass finds every rule key in it, and only lines holding a key are
checked, against the rules those keys may reveal, in rule order, first match wins. A bounded
verdict cache, shared per rule set, answers lines seen before.

Memory is bounded either way: counts, a short tail, at most ``max_blocks`` blocks of bounded
size, summaries, and the cache.
"""

from __future__ import annotations

import re
import time
from collections import Counter, deque
from itertools import compress, repeat
from typing import Any, Literal

from pydantic import BaseModel, Field

from autofix.classify.blocks import BlockKind, BlockText, BlockTracker, block_kind
from autofix.classify.normalize import normalize_line, normalize_text
from autofix.patterns import engine as hs
from autofix.patterns.compiled import (
    CHECK_FOLDED_SUBSTRING,
    CHECK_REGEX,
    CHECK_SUBSTRING,
    VERDICT_CACHE_ENTRIES,
    VERDICT_CACHE_LINE_CHARS,
    CompiledRules,
    EngineSet,
    ascii_lower,
)
from autofix.redact import redact
from autofix.result import (
    MAX_BLOCK_CHARS,
    BlockSource,
    BlockWeight,
    ErrorBlock,
    Evidence,
    truncate,
)

Verdict = Literal["noise", "neutral", "error", "success"]
TAIL_LINES = 5
SUMMARY_LINES = 5  # success and failure summary lines kept per stream, each
_NON_SPACE = re.compile(rb"\S")
_WEIGHT_ORDER = {BlockWeight.RECOVERED: 0, BlockWeight.ERROR: 1, BlockWeight.FATAL: 2}
# A line's verdict: deciding rule position (-1: neutral), timed out, the block kind it opens,
# and the rule id when it is plain noise (no block): the common case, settled fastest.
_Decision = tuple[int, bool, BlockKind | None, str | None]
_NEUTRAL: _Decision = (-1, False, None, None)
_BLOCK_SEPARATOR = "\n\x00\x00\n"
_CONTENT_KINDS = ("error", "failure_summary", "success_summary")  # lines a tail shows
TAIL_SCAN_LINES = 200  # lines walked back from a chunk's end to find its tail (engine path)


class ClassifyReport(BaseModel):
    """What one stream contained."""

    noise_lines: int = 0
    neutral_lines: int = 0
    error_lines: int = 0
    blocks: list[ErrorBlock] = Field(default_factory=list)
    blocks_dropped: int = 0  # error blocks past ``max_blocks``: counted, not kept
    # Of the dropped blocks: how many of each weight, and the line of the last that counts.
    dropped_weights: dict[str, int] = Field(default_factory=dict)
    dropped_last_line: int = 0
    # The first failure summaries and the last success summaries (SUMMARY_LINES each), with
    # the totals and the line of the last success summary (errors after it are not outweighed).
    summaries: list[Evidence] = Field(default_factory=list)
    failure_summary_lines: int = 0
    success_summary_lines: int = 0
    last_success_line: int = 0
    rule_hits: dict[str, int] = Field(default_factory=dict)
    disabled_rules: list[str] = Field(default_factory=list)
    warnings: list[str] = Field(default_factory=list)
    patterns_source: str = "defaults"
    stream: str = "stderr"
    tail: list[str] = Field(default_factory=list)  # last non-blank lines, for messages

    @property
    def total_lines(self) -> int:
        return self.noise_lines + self.neutral_lines + self.error_lines

    def sample(self, limit: int = 40) -> list[str]:
        """Distinct non-noise lines seen: every kept block's lines, then the tail."""
        lines = [line for block in self.blocks for line in block.text.splitlines()]
        found = dict.fromkeys(line.strip() for line in [*lines, *self.tail] if line.strip())
        return [line for line in found if not line.startswith("… (")][:limit]


class LineVerdict(BaseModel):
    """One line's verdict, for ``autofix patterns explain``."""

    line_no: int
    verdict: Verdict
    rule_id: str | None = None
    in_block: bool = False
    text: str = ""


class Classifier:
    """Feed it chunks (``feed``) or lines (``feed_line``), then ``finish``."""

    def __init__(
        self,
        rules: CompiledRules,
        operation: str = "",
        max_blocks: int = 20,
        *,
        stream: str = "stderr",
        explain: bool = False,
        verdict_cache: bool = True,
        engine: bool | None = None,
    ) -> None:
        """``engine``: None uses it when installed; False forces the fallback path."""
        self._source = rules.source
        self._settings = rules.settings
        self._set = rules.ruleset(operation, stream)
        self._rules = self._set.rules
        self._checks = self._set.checks
        self._max_len = rules.settings.max_line_length
        self._max_bytes = self._max_len * 4 + 4
        self._max_blocks = max_blocks
        self._stream = stream
        self._noise = self._neutral = self._error = 0
        self._hits: dict[str, int] = {}
        # Kept blocks as raw fields; ErrorBlocks are built (and redacted in one pass) at finish.
        self._blocks: list[dict[str, Any]] = []
        self._dropped = 0
        self._warnings: list[str] = list(rules.warnings)
        self._disabled: set[int] = set()
        self._strikes: dict[int, int] = {}
        self._regex_seconds = 0.0
        self._budget_spent = False
        self._tracker = BlockTracker()
        self._block: BlockText | None = None
        self._block_rule: str | None = None
        self._block_line = 0
        self._block_kind_noise = False
        self._block_weight = BlockWeight.ERROR
        self._noise_rule: str | None = None
        # True while the stream's last non-noise line belongs to an error block (uncaught).
        self._tail_is_error = False
        # (line_no, rule id, text) of summary lines; Evidence is built for the kept ones only.
        self._failures: list[tuple[int, str, str]] = []
        self._successes: deque[tuple[int, str, str]] = deque(maxlen=SUMMARY_LINES)
        self._failure_count = self._success_count = self._last_success = 0
        self._dropped_weights: dict[str, int] = {}
        self._dropped_last = 0
        self._last_dropped = False
        self._pending_blank = 0
        self._last_error_line = -2
        self._line_no = 0
        self._tail: deque[str] = deque(maxlen=TAIL_LINES)
        # Tail candidates of the current chunk, in order: a line, or a (start, stop) range of
        # counted neutral lines, resolved once per chunk (most are pushed out before then).
        self._tail_events: list[str | tuple[int, int]] = []
        self._cache = self._set.verdicts if verdict_cache else None
        self._partial = bytearray()
        self._discarding = False
        self._finished: ClassifyReport | None = None
        self.explained: list[LineVerdict] | None = [] if explain else None
        self._engine: EngineSet | None = None if engine is False else self._set.engine()
        self._walked: dict[int, bool] = {}  # this chunk's walked lines: shown in a tail?
        if engine and self._engine is None:
            raise RuntimeError("the pattern engine (hyperscan) is not installed or is switched off")

    # ---- input -------------------------------------------------------------------------

    def feed(self, chunk: bytes | str) -> None:
        """Any chunk: lines and UTF-8 sequences may be split across calls."""
        data = chunk.encode("utf-8", "replace") if isinstance(chunk, str) else bytes(chunk)
        if self._discarding:
            cut = data.find(b"\n")
            if cut == -1:
                return
            self._discarding = False
            data = b"\n" + data[cut + 1 :] if self._partial else data[cut + 1 :]
            if self._partial:
                data = bytes(self._partial) + data
                self._partial.clear()
        end = data.rfind(b"\n")
        if end == -1:
            self._partial += data
            self._bound_partial()
            return
        if self._partial:
            data = bytes(self._partial) + data
            end += len(self._partial)
            self._partial.clear()
        self._partial += data[end + 1 :]
        self._bound_partial()
        self._process(data[: end + 1])

    def _bound_partial(self) -> None:
        if len(self._partial) > self._max_bytes:
            del self._partial[self._max_bytes :]
            self._discarding = True

    def feed_line(self, line: str) -> None:
        """One already-split line (with or without its newline)."""
        line = normalize_line(line, self._max_len)
        if self._engine is not None:
            self._process_engine(line.replace("\n", " ").encode("utf-8", "surrogatepass") + b"\n")
            return
        self._handle(line, self._set.all_mask if self._set.unkeyed else self._mask_for(line))
        self._flush_tail("")

    def finish(self) -> ClassifyReport:
        if self._finished is not None:
            return self._finished
        if self._partial:
            self._process(bytes(self._partial) + b"\n")
            self._partial.clear()
        self._close_block()
        if self._tail_is_error and self._blocks and not self._last_dropped:
            self._blocks[-1]["uncaught"] = True
        self._finished = ClassifyReport(
            noise_lines=self._noise,
            # Every line is noise, error or neither; summaries and blank lines are neutral.
            neutral_lines=self._line_no - self._noise - self._error,
            error_lines=self._error,
            blocks=_error_blocks(self._blocks),
            blocks_dropped=self._dropped,
            dropped_weights=self._dropped_weights,
            dropped_last_line=self._dropped_last,
            summaries=[
                *(self._evidence("failure summary", *item) for item in self._failures),
                *(self._evidence("success summary", *item) for item in self._successes),
            ],
            failure_summary_lines=self._failure_count,
            success_summary_lines=self._success_count,
            last_success_line=self._last_success,
            rule_hits=self._hits,
            disabled_rules=[self._rules[i].id for i in sorted(self._disabled)],
            warnings=self._warnings,
            patterns_source=self._source,
            stream=self._stream,
            tail=list(self._tail),
        )
        return self._finished

    # ---- chunk scanning ----------------------------------------------------------------

    def _process(self, data: bytes) -> None:
        if self._engine is not None:
            self._process_engine(data)
            return
        text = normalize_text(data.decode("utf-8", errors="replace"))
        if self._set.unkeyed:
            all_mask = self._set.all_mask
            for line in text.split("\n")[:-1]:
                self._handle(line[: self._max_len], all_mask)
            self._flush_tail("")
            return
        raw = text.encode("utf-8", "surrogatepass")
        view = raw.lower()  # ASCII-only lowering keeps every offset
        # Lines come from the text itself when offsets agree (ASCII), else from the UTF-8 bytes.
        src: str | bytes = text if len(raw) == len(text) else raw
        matcher = self._set.matcher
        if matcher is None:
            self._skip_to(src, view, 0, len(view))
            self._flush_tail(src)
            return
        key_masks = self._set.key_masks
        start_masks = self._set.start_masks
        find = view.find
        rfind = view.rfind
        tracker = self._tracker
        explain = self.explained
        events = self._tail_events
        candidate = self._candidate
        cursor = 0
        start = line_end = -1
        mask = 0
        for key, hit, _ in matcher.find_matches_as_indexes(view, overlapping=True):
            if hit >= line_end:  # the first key on a new line: settle the previous one
                if mask:
                    if start > cursor:
                        if tracker.kind is None and explain is None:  # inlined _skip_to
                            self._line_no += view.count(b"\n", cursor, start)
                            events.append((cursor, start))
                            if self._tail_is_error and _NON_SPACE.search(view, cursor, start):
                                self._tail_is_error = False
                        else:
                            self._skip_to(src, view, cursor, start)
                    candidate(src[start:line_end], mask)
                    cursor = line_end + 1
                start = rfind(b"\n", 0, hit) + 1
                line_end = find(b"\n", hit)
                mask = 0
            mask |= key_masks[key]
            if hit == start:
                mask |= start_masks[key]
        if mask:
            if start > cursor:
                self._skip_to(src, view, cursor, start)
            self._candidate(src[start:line_end], mask)
            cursor = line_end + 1
        if cursor < len(view):
            self._skip_to(src, view, cursor, len(view))
        self._flush_tail(src)

    # ---- the engine path ----------------------------------------------------------------

    def _process_engine(self, data: bytes) -> None:
        """One chunk of whole lines, as bytes: one scan, bulk counts, Python for the rest."""
        engine = self._engine
        assert engine is not None
        best = self._scan(data)
        if hs.F_CRLF in best.values():  # rare: "\r\n" is a newline
            data = data.replace(b"\r\n", b"\n")
            best = self._scan(data)
        forced = hs.long_line_ends(data, self._max_len)
        if not data.isascii():
            try:
                data.decode("utf-8")
            except UnicodeDecodeError:
                forced.extend(hs.invalid_utf8_ends(data))
        for end in forced:
            best[end] = hs.F_SLOW
        clean: dict[int, bytes] = {}
        if hs.F_SLOW in best.values():
            self._slow_lines(data, best, clean)
        plain = engine.plain
        hits_by_id = self._hits
        rules = self._rules
        for i, count in Counter(best.values()).items():
            position = plain[i]
            if position >= 0:
                self._noise += count
                rule_id = rules[position].id
                hits_by_id[rule_id] = hits_by_id.get(rule_id, 0) + count
        if self.explained is not None:
            todo: list[int] = _line_ends(data)
        else:
            special = [p < 0 for p in plain]
            todo = sorted(compress(best, map(special.__getitem__, best.values())))
        before = self._line_no
        self._walked.clear()
        if todo or self._tracker.open:
            self._walk(data, best, clean, todo)
        self._line_no = before + data.count(b"\n")
        self._engine_tail(data, best, clean)

    def _scan(self, data: bytes) -> dict[int, int]:
        """Line end -> the smallest engine id that hit the line (the first rule), in C loops."""
        assert self._engine is not None
        hits = self._engine.engine.scan(data)
        hits.sort(reverse=True)  # per line, descending ids: the dict keeps the smallest
        return dict(map(divmod, hits, repeat(1 << hs.ID_BITS)))

    def _slow_lines(self, data: bytes, best: dict[int, int], clean: dict[int, bytes]) -> None:
        """Lines with terminal control, invalid UTF-8 or past the cap: normalise them as the
        fallback does, then scan them again together; their first hits replace the raw ones."""
        engine = self._engine
        assert engine is not None
        ends = [end for end, i in best.items() if i == hs.F_SLOW]
        # One batch: no escape or invalid sequence spans the joining newlines, so this equals
        # normalising each line alone, with the per-line work in C.
        raw = b"\n".join(data[data.rfind(b"\n", 0, end) + 1 : end] for end in ends)
        lines = normalize_text(raw.decode("utf-8", "replace")).split("\n")
        cap = self._max_len
        fixed = (
            "\n".join(line[:cap] for line in lines).encode("utf-8", "surrogatepass").split(b"\n")
        )
        firsts: dict[int, int] = {}
        for value in engine.engine.scan(b"\n".join(fixed) + b"\n"):
            end, i = value >> hs.ID_BITS, value & hs.ID_MASK
            if i != hs.F_SLOW and i < firsts.get(end, hs.ID_MASK + 1):
                firsts[end] = i  # a stray ESC left after normalising is not slow again
        offset = -1
        for end, line in zip(ends, fixed, strict=True):
            offset += len(line) + 1  # this line's newline in the batch
            clean[end] = line
            found = firsts.get(offset)
            if found is None:
                del best[end]
            else:
                best[end] = found

    def _walk(
        self, data: bytes, best: dict[int, int], clean: dict[int, bytes], todo: list[int]
    ) -> None:
        """In order: the lines that need Python, and the lines an open block takes."""
        tracker = self._tracker
        find = data.find
        cursor = 0  # start of the first line not yet counted in ``_line_no``
        for end in todo:
            if end < cursor:
                continue  # taken by a block
            start = data.rfind(b"\n", 0, end) + 1
            while tracker.kind is not None and cursor < start:
                stop = find(b"\n", cursor)
                self._engine_line(data, best, clean, cursor, stop)
                cursor = stop + 1
            if cursor < start:
                self._line_no += data.count(b"\n", cursor, start)
            self._engine_line(data, best, clean, start, end)
            cursor = end + 1
        while tracker.kind is not None and cursor < len(data):
            stop = find(b"\n", cursor)
            self._engine_line(data, best, clean, cursor, stop)
            cursor = stop + 1

    def _engine_line(
        self, data: bytes, best: dict[int, int], clean: dict[int, bytes], start: int, end: int
    ) -> None:
        raw = clean.get(end)
        if raw is None:
            raw = data[start:end]
        line = raw.decode("utf-8", "replace")
        engine = self._engine
        assert engine is not None
        i = best.get(end)
        position = -1 if i is None else engine.plain[i]
        self._line_no += 1
        if self._tracker.kind is not None:
            if self._tracker.offer(line):
                if position >= 0:  # counted in bulk as plain noise; the block decides it now
                    self._noise -= 1
                    rule_id = self._rules[position].id
                    self._hits[rule_id] -= 1
                    if not self._hits[rule_id]:
                        del self._hits[rule_id]
                self._walked[end] = not self._block_kind_noise
                self._continue_block(line)
                return
            self._end_open_block()
        if i is None:
            self._walked[end] = True
            self._apply(line, _NEUTRAL)
        elif position >= 0:
            self._walked[end] = False
            self._explain(line, "noise", self._rules[position].id)
        else:
            decision = self._engine_decision(i, line, raw)
            rule = self._rules[decision[0]]
            self._walked[end] = decision[0] < 0 or decision[1] or rule.rule.kind in _CONTENT_KINDS
            self._apply(line, decision)

    def _engine_decision(self, i: int, line: str, raw: bytes) -> _Decision:
        """The first rule that really matches a line the engine flagged."""
        engine = self._engine
        assert engine is not None
        ids = [i] if engine.exact[i] else engine.engine.line_ids(raw)
        for j in ids:
            if j < hs.N_FLAGS:
                continue
            position = j - hs.N_FLAGS
            if self._disabled and position in self._disabled:
                continue
            if engine.exact[j]:
                return self._decision(position, False, line)
            rule = self._rules[position]
            if rule.user_regex:
                found = self._user_search(position, line)
                if found is None:
                    return self._decision(position, True, line)  # fail safe
            else:
                found = rule.matches(line, ascii_lower(line))
            if found:
                return self._decision(position, False, line)
        return _NEUTRAL

    def _engine_tail(self, data: bytes, best: dict[int, int], clean: dict[int, bytes]) -> None:
        """The chunk's last non-noise lines, for messages; a neutral one after the last error
        means that error was not the stream's last word. Bounded walk back from the end."""
        self._tail_events.clear()
        plain = self._engine.plain if self._engine is not None else ()
        picked: list[str] = []
        end = len(data) - 1
        walked = 0
        last_error = self._last_error_line
        line_no = self._line_no
        while end >= 0 and len(picked) < TAIL_LINES and walked < TAIL_SCAN_LINES:
            start = data.rfind(b"\n", 0, end) + 1
            shown = self._walked.get(end)
            if shown is None:
                i = best.get(end)
                shown = i is None or plain[i] < 0
            if shown:
                raw = clean.get(end)
                text = (data[start:end] if raw is None else raw).decode("utf-8", "replace").strip()
                if text:
                    if not picked and line_no > last_error:
                        self._tail_is_error = False
                    picked.append(text[:300])
            end = start - 1
            walked += 1
            line_no -= 1
        self._tail.extend(reversed(picked))

    def _candidate(self, piece: str | bytes, mask: int) -> None:
        """A line holding keys; the common outcomes are settled here without ``_handle``."""
        line = (piece if isinstance(piece, str) else piece.decode("utf-8", "surrogatepass"))[
            : self._max_len
        ]
        if self._tracker.kind is not None or self.explained is not None:
            self._handle(line, mask)
            return
        self._line_no += 1
        cache = self._cache
        decision = cache.get(line) if cache is not None and not self._disabled else None
        if decision is None:
            decision = self._decide(line, mask)
        plain = decision[3]
        if plain is not None:
            self._noise += 1  # plain noise: no block, nothing kept
            hits = self._hits
            hits[plain] = hits.get(plain, 0) + 1
            return
        if decision[0] < 0:
            stripped = line.strip()
            if stripped:
                self._tail_events.append(stripped[:300])
                self._tail_is_error = False
            return
        self._apply(line, decision)

    def _skip_to(self, src: str | bytes, view: bytes, cursor: int, stop: int) -> None:
        """Lines in [cursor, stop) hold no key: feed them to an open block, then count the rest."""
        while self._tracker.open and cursor < stop:
            end = view.find(b"\n", cursor)
            self._handle(_decode(src[cursor:end])[: self._max_len], None)
            cursor = end + 1
        if cursor < stop:
            if self.explained is not None:
                for line in _decode(src[cursor:stop]).split("\n")[:-1]:
                    self._handle(line[: self._max_len], None)
            else:
                self._line_no += view.count(b"\n", cursor, stop)
                self._tail_events.append((cursor, stop))
                if self._tail_is_error and _NON_SPACE.search(view, cursor, stop):
                    self._tail_is_error = False

    def _flush_tail(self, src: str | bytes) -> None:
        """Resolve this chunk's tail candidates: the last non-blank neutral or error lines."""
        events = self._tail_events
        if not events:
            return
        picked: list[str] = []  # newest first
        for event in reversed(events):
            if isinstance(event, str):
                picked.append(event)
            else:
                _range_tail(src, event[0], event[1], TAIL_LINES - len(picked), picked)
            if len(picked) >= TAIL_LINES:
                break
        events.clear()
        self._tail.extend(reversed(picked[:TAIL_LINES]))

    # ---- one line ----------------------------------------------------------------------

    def _handle(self, line: str, mask: int | None) -> None:
        """One line; ``mask``: the rules its keys may reveal (None: it holds no key)."""
        self._line_no += 1
        if self._tracker.open:
            if self._tracker.offer(line):
                self._continue_block(line)
                return
            self._end_open_block()
        self._apply(line, _NEUTRAL if mask is None else self._decide(line, mask))

    def _apply(self, line: str, decision: _Decision) -> None:
        """Count a decided line (outside any open block) and open its block, if any."""
        position, timed_out, kind, _ = decision
        if position < 0:
            if self.explained is not None:
                self._explain(line, "neutral", None)
            stripped = line.strip()
            if stripped:
                self._tail_events.append(stripped[:300])
                self._tail_is_error = False
            return
        rule = self._rules[position]
        hits = self._hits
        hits[rule.id] = hits.get(rule.id, 0) + 1
        rule_kind = rule.rule.kind
        if rule.is_error or timed_out:
            self._error += 1
            self._tail_events.append(line.strip()[:300])
            if self.explained is not None:
                self._explain(line, "error", rule.id)
            if rule_kind == "failure_summary":
                self._summary(line, rule.id, failure=True)
                weight = BlockWeight.SUMMARY
            else:
                weight = BlockWeight(rule.rule.weight)
            self._error_line(line, rule.id, kind, weight)
        elif rule_kind == "success_summary":  # counted as neutral: harmless output
            self._explain(line, "success", rule.id)
            self._tail_events.append(line.strip()[:300])
            self._tail_is_error = False
            self._summary(line, rule.id, failure=False)
        else:
            self._noise += 1
            if self.explained is not None:
                self._explain(line, "noise", rule.id)
            if rule_kind == "retry":
                self._retried()
            if kind is not None:
                self._tracker.start(kind, line)
                self._block_kind_noise = True
                self._noise_rule = rule.id

    def _retried(self) -> None:
        """A retry notice: the error block right before it was not the final word."""
        if self._block is not None and self._last_error_line >= self._line_no - 2:
            self._block_weight = BlockWeight.RECOVERED
        self._tail_is_error = False

    def _evidence(self, role: str, line_no: int, rule_id: str, text: str) -> Evidence:
        return Evidence(role=role, rule_id=rule_id, stream=self._stream, line_no=line_no, text=text)

    def _summary(self, line: str, rule_id: str, failure: bool) -> None:
        evidence = (self._line_no, rule_id, line.strip()[:300])
        if failure:
            self._failure_count += 1
            if len(self._failures) < SUMMARY_LINES:
                self._failures.append(evidence)
        else:
            self._success_count += 1
            self._last_success = self._line_no
            self._successes.append(evidence)

    def _decide(self, line: str, mask: int) -> _Decision:
        """The verdict from the rules; cached per rule set when it can't depend on state.

        A verdict is a pure function of the (capped) line while no rule is disabled and no
        user regex timed out, so only such verdicts are stored or used. Block state is
        applied by the caller, never cached.
        """
        cache = self._cache
        pristine = cache is not None and not self._disabled
        if pristine:
            assert cache is not None
            found: _Decision | None = cache.get(line)
            if found is not None:
                return found
        rule_set = self._set
        plan = rule_set._plans.get(mask) or rule_set.plan(mask)
        match = self._first_match(line, plan)
        if match is None:
            decision = _NEUTRAL
        else:
            decision = self._decision(*match, line)
            if match[1]:  # timed out
                return decision
        if pristine and not self._disabled and len(line) <= VERDICT_CACHE_LINE_CHARS:
            assert cache is not None
            if len(cache) >= VERDICT_CACHE_ENTRIES:
                cache.clear()  # bounded; simple beats LRU bookkeeping on the hot path
            cache[line] = decision
        return decision

    def _decision(self, position: int, timed_out: bool, line: str) -> _Decision:
        rule = self._rules[position]
        is_error = timed_out or rule.is_error
        rule_kind = rule.rule.kind
        # A retry notice keeps the stack trace it heads (indented frames) as noise.
        kind = BlockKind.GENERIC if rule_kind == "retry" else block_kind(line, is_error)
        plain = None if is_error or kind is not None or rule_kind != "noise" else rule.id
        return (position, timed_out, kind, plain)

    def _mask_for(self, line: str) -> int:
        return self._set.mask_of(ascii_lower(line))

    def _first_match(self, line: str, positions: tuple[int, ...]) -> tuple[int, bool] | None:
        """The deciding rule, and whether it timed out (then the line counts as an error)."""
        checks = self._checks
        disabled = self._disabled
        folded: str | None = None
        for position in positions:
            if disabled and position in disabled:
                continue
            mode, test = checks[position]
            if mode == CHECK_REGEX:
                if test(line) is not None:
                    return position, False
            elif mode == CHECK_SUBSTRING:
                if test in line:
                    return position, False
            else:
                if folded is None:
                    folded = ascii_lower(line)
                if mode == CHECK_FOLDED_SUBSTRING:
                    if test in folded:
                        return position, False
                elif self._rules[position].may_match(folded):
                    matched = self._user_search(position, line)
                    if matched is None:
                        return position, True  # fail safe
                    if matched:
                        return position, False
        return None

    def _user_search(self, position: int, line: str) -> bool | None:
        settings = self._settings
        if self._budget_spent:
            return False
        remaining = settings.response_budget_ms / 1000 - self._regex_seconds
        timeout = min(settings.regex_timeout_ms / 1000, remaining)
        rule = self._rules[position]
        started = time.perf_counter()
        try:
            found = rule.pattern.search(line, timeout=max(timeout, 1e-4)) is not None
        except TimeoutError:
            found = None
        finally:
            self._regex_seconds += time.perf_counter() - started
        if found is None:
            strikes = self._strikes[position] = self._strikes.get(position, 0) + 1
            self._warn(
                f"rule {rule.id!r} timed out on line {self._line_no}; the line counts as an error"
            )
            if strikes >= settings.max_rule_timeouts:
                self._disabled.add(position)
                self._warn(f"rule {rule.id!r} disabled after {strikes} timeouts")
        if self._regex_seconds * 1000 >= settings.response_budget_ms and not self._budget_spent:
            self._budget_spent = True
            for pos, compiled in enumerate(self._rules):
                if compiled.user_regex:
                    self._disabled.add(pos)
            message = (
                f"pattern time budget of {settings.response_budget_ms:g} ms spent at line {self._line_no}; "
                "regex rules were skipped for the rest of the output"
            )
            self._warn(message)
            self._add_block(message, "patterns-budget", self._line_no, source=BlockSource.RUNNER)
        return found

    def _warn(self, message: str) -> None:
        if len(self._warnings) < 50:
            self._warnings.append(message)

    # ---- blocks ------------------------------------------------------------------------

    def _error_line(
        self, line: str, rule_id: str, kind: BlockKind | None, weight: BlockWeight
    ) -> None:
        if (
            self._block is not None
            and self._last_error_line == self._line_no - 1
            and kind is BlockKind.GENERIC
            and (weight is BlockWeight.SUMMARY) == (self._block_weight is BlockWeight.SUMMARY)
        ):
            self._block.add(line)  # adjacent error lines form one block
            if _WEIGHT_ORDER.get(weight, 3) > _WEIGHT_ORDER.get(self._block_weight, 3):
                self._block_weight = weight
        else:
            self._close_block()
            self._block = BlockText(line)
            self._block_rule = rule_id
            self._block_line = self._line_no
            self._block_weight = weight
        self._block_kind_noise = False
        self._tail_is_error = True
        self._last_error_line = self._line_no
        assert kind is not None
        self._tracker.start(kind, line)

    def _continue_block(self, line: str) -> None:
        if not line.strip():
            self._pending_blank += 1
            return
        pending, self._pending_blank = self._pending_blank, 0
        if self._block_kind_noise:
            self._noise += 1 + pending
            self._explain(line, "noise", self._noise_rule, in_block=True)
            return
        self._error += 1 + pending
        self._tail_is_error = True
        if self._block is not None:
            for _ in range(pending):
                self._block.add("")
            self._block.add(line)
        self._last_error_line = self._line_no
        self._tail_events.append(line.strip()[:300])
        self._explain(line, "error", self._block_rule, in_block=True)

    def _end_open_block(self) -> None:
        self._pending_blank = 0
        self._tracker.close()

    def _close_block(self) -> None:
        if self._tracker.open:
            self._end_open_block()
        if self._block is not None:
            self._add_block(
                self._block.text(), self._block_rule, self._block_line, weight=self._block_weight
            )
            self._block = None

    def _add_block(
        self,
        text: str,
        rule_id: str | None,
        line_no: int,
        source: BlockSource | None = None,
        weight: BlockWeight = BlockWeight.ERROR,
    ) -> None:
        self._last_dropped = len(self._blocks) >= self._max_blocks
        if self._last_dropped:
            self._dropped += 1
            self._dropped_weights[weight.value] = self._dropped_weights.get(weight.value, 0) + 1
            if weight is not BlockWeight.RECOVERED:
                self._dropped_last = line_no
            return
        self._blocks.append(
            {
                "text": text,
                "rule_id": rule_id,
                "source": source or BlockSource(self._stream),
                "line_no": line_no,
                "weight": weight,
            }
        )

    def _explain(
        self, line: str, verdict: Verdict, rule_id: str | None, in_block: bool = False
    ) -> None:
        if self.explained is not None:
            self.explained.append(
                LineVerdict(
                    line_no=self._line_no,
                    verdict=verdict,
                    rule_id=rule_id,
                    in_block=in_block,
                    text=line,
                )
            )


def _error_blocks(fields: list[dict[str, Any]]) -> list[ErrorBlock]:
    """ErrorBlocks with their text bounded and redacted as ErrorBlock's validator does, but
    in one pass over all of them (a 16 KB parse has up to 20 blocks)."""
    if not fields:
        return []
    # Only the first MAX_BLOCK_CHARS are kept; the margin keeps any secret that starts in them
    # whole for the redactor.
    joined = _BLOCK_SEPARATOR.join(f["text"][: MAX_BLOCK_CHARS + 2048] for f in fields)
    texts = redact(joined).split(_BLOCK_SEPARATOR)
    if len(texts) != len(fields):  # a separator in the text itself: one at a time
        return [ErrorBlock(**f) for f in fields]
    return [
        ErrorBlock.model_construct(**{**f, "text": truncate(text, MAX_BLOCK_CHARS)})
        for f, text in zip(fields, texts, strict=True)
    ]


def _line_ends(data: bytes) -> list[int]:
    ends: list[int] = []
    end = data.find(b"\n")
    while end != -1:
        ends.append(end)
        end = data.find(b"\n", end + 1)
    return ends


def _decode(piece: str | bytes) -> str:
    return piece if isinstance(piece, str) else piece.decode("utf-8", "surrogatepass")


def _range_tail(src: str | bytes, floor: int, stop: int, wanted: int, picked: list[str]) -> None:
    """Append (newest first) up to ``wanted`` non-blank lines of src[floor:stop] to ``picked``."""
    end = stop - 1  # the newline closing the range's last line
    nl: Any = "\n" if isinstance(src, str) else b"\n"  # str.rfind/bytes.rfind
    while end >= floor and wanted > 0:
        start = src.rfind(nl, floor, end) + 1 or floor
        line = _decode(src[start:end]).strip()
        if line:
            picked.append(line[:300])
            wanted -= 1
        end = start - 1
