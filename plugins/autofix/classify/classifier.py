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

This module is the input side; what happens to one decided line is ``LineJudge``
(line_judge.py), and what comes out is ``ClassifyReport`` (stream_report.py).
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections import Counter, deque
from itertools import compress, repeat
from typing import Any

from autofix.classify.line_judge import NEUTRAL, Decision, LineJudge
from autofix.classify.normalize import normalize_line, normalize_text
from autofix.classify.stream_report import ClassifyReport, error_blocks
from autofix.patterns import engine as hs
from autofix.patterns.compiled import (
    SETTLE_FULL,
    SETTLE_PY_WARNING,
    SETTLE_SUCCESS,
    CompiledRules,
    EngineSet,
    ascii_lower,
)

_NON_SPACE = re.compile(rb"\S")
_CONTENT_KINDS = ("error", "failure_summary", "success_summary")  # lines a tail shows
TAIL_LINES = 5  # last non-noise lines kept for messages
TAIL_SCAN_LINES = 200  # lines walked back from a chunk's end to find its tail (engine path)


class Classifier(LineJudge):
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
        super().__init__(
            rules,
            operation,
            max_blocks,
            stream=stream,
            explain=explain,
            verdict_cache=verdict_cache,
        )
        self._source = rules.source
        self._max_len = rules.settings.max_line_length
        self._max_bytes = self._max_len * 4 + 4
        self._tail: deque[str] = deque(maxlen=TAIL_LINES)
        self._partial = bytearray()
        self._discarding = False
        self._finished: ClassifyReport | None = None
        self._engine: EngineSet | None = None if engine is False else self._set.engine()
        self._walked: dict[int, bool] = {}  # this chunk's walked lines: shown in a tail?
        self._hits_sorted: list[int] = []  # this chunk's engine hits, ``end << ID_BITS | id``
        self._slow_ids: dict[int, list[int]] = {}  # a normalised line's ids, by its raw end
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
            blocks=error_blocks(self._blocks),
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
        """Line end -> the smallest engine id that hit the line (the first rule), in C loops.
        Every hit stays in ``_hits_sorted`` (ascending): a line's other ids are a bisect away."""
        assert self._engine is not None
        hits = self._engine.engine.scan(data)
        hits.sort()
        self._hits_sorted = hits
        self._slow_ids.clear()
        # Per line, descending ids: the dict keeps the smallest.
        return dict(map(divmod, reversed(hits), repeat(1 << hs.ID_BITS)))

    def _line_ids(self, end: int) -> list[int]:
        """Every engine id that hit the line ending at ``end``, ascending."""
        found = self._slow_ids.get(end)
        if found is not None:
            return found
        hits = self._hits_sorted
        low = bisect_left(hits, end << hs.ID_BITS)
        high = bisect_left(hits, (end + 1) << hs.ID_BITS, low)
        return sorted({value & hs.ID_MASK for value in hits[low:high]})

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
        by_line: dict[int, set[int]] = {}
        for value in engine.engine.scan(b"\n".join(fixed) + b"\n"):
            i = value & hs.ID_MASK
            if i != hs.F_SLOW:  # a stray ESC left after normalising is not slow again
                by_line.setdefault(value >> hs.ID_BITS, set()).add(i)
        offset = -1
        for end, line in zip(ends, fixed, strict=True):
            offset += len(line) + 1  # this line's newline in the batch
            clean[end] = line
            found = by_line.get(offset)
            if found is None:
                del best[end]
            else:
                ids = self._slow_ids[end] = sorted(found)
                best[end] = ids[0]

    def _walk(
        self, data: bytes, best: dict[int, int], clean: dict[int, bytes], todo: list[int]
    ) -> None:
        """In order: the lines that need Python, and the lines an open block takes."""
        tracker = self._tracker
        engine = self._engine
        assert engine is not None
        # The short paths assume what the whole path would check: no trace, no disabled rule.
        settle = engine.settle if self.explained is None else ()
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
            how = settle[best[end]] if settle and not self._disabled else SETTLE_FULL
            if how == SETTLE_SUCCESS:
                self._success_line(data, best[end], clean, start, end)
            elif how == SETTLE_FULL or (taken := self._warning(data, best, clean, end, how)) < 0:
                self._engine_line(data, best, clean, start, end)
            else:
                cursor = taken
                continue
            cursor = end + 1
        while tracker.kind is not None and cursor < len(data):
            stop = find(b"\n", cursor)
            self._engine_line(data, best, clean, cursor, stop)
            cursor = stop + 1

    def _first_rule_id(self, end: int) -> int:
        """The smallest rule id (no flag) that hit the line ending at ``end``, or -1."""
        found = self._slow_ids.get(end)
        if found is not None:
            return next((j for j in found if j >= hs.N_FLAGS), -1)
        hits = self._hits_sorted
        k = bisect_left(hits, end << hs.ID_BITS | hs.N_FLAGS)
        if k < len(hits) and hits[k] >> hs.ID_BITS == end:
            return hits[k] & hs.ID_MASK
        return -1

    def _success_line(
        self, data: bytes, i: int, clean: dict[int, bytes], start: int, end: int
    ) -> None:
        """A success summary outside any block: ``_engine_line`` and ``_apply``, short."""
        raw = clean.get(end)
        line = (data[start:end] if raw is None else raw).decode("utf-8", "replace")
        rule_id = self._rules[i - hs.N_FLAGS].id
        self._line_no += 1
        self._hits[rule_id] = self._hits.get(rule_id, 0) + 1
        self._walked[end] = True
        self._tail_is_error = False
        self._summary(line, rule_id, failure=False)

    def _warning(
        self, data: bytes, best: dict[int, int], clean: dict[int, bytes], end: int, how: int
    ) -> int:
        """A Python or Node warning head outside any block, decided by a plain noise rule: the
        head and the one line its block may take (blocks.py), settled here. Returns where the
        walk goes on, or -1 when the head needs the whole path (another decision; the chunk's
        last line, whose block stays open for the next chunk)."""
        engine = self._engine
        assert engine is not None
        plain = engine.plain
        first = self._first_rule_id(end)
        position = plain[first] if first >= 0 else -1
        follower = end + 1
        if position < 0 or follower >= len(data):
            return -1
        stop = data.find(b"\n", follower)
        raw = clean.get(stop)
        if raw is None:
            raw = data[follower:stop]
        if how == SETTLE_PY_WARNING:  # blocks._indented, with str's idea of whitespace
            taken = raw[:1] in (b" ", b"\t") and bool(raw.decode("utf-8", "replace").strip())
        else:
            taken = raw.startswith(b"(Use `node --trace-")
        rule_id = self._rules[position].id
        hits = self._hits
        hits[rule_id] = hits.get(rule_id, 0) + 1
        self._noise += 1
        self._line_no += 1
        self._walked[end] = False
        self._block_kind_noise = True
        self._noise_rule = rule_id
        if not taken:
            return follower
        self._line_no += 1
        self._walked[stop] = False
        i = best.get(stop)
        was = -1 if i is None else plain[i]
        if was >= 0:  # counted in bulk as plain noise: the block's noise now, without a hit
            was_id = self._rules[was].id
            hits[was_id] -= 1
            if not hits[was_id]:
                del hits[was_id]
        else:
            self._noise += 1
        return stop + 1

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
            self._apply(line, NEUTRAL)
        elif position >= 0:
            self._walked[end] = False
            self._explain(line, "noise", self._rules[position].id)
        else:
            decision = self._engine_decision(i, line, end)
            rule = self._rules[decision[0]]
            self._walked[end] = decision[0] < 0 or decision[1] or rule.rule.kind in _CONTENT_KINDS
            self._apply(line, decision)

    def _engine_decision(self, i: int, line: str, end: int) -> Decision:
        """The first rule that really matches a line the engine flagged."""
        engine = self._engine
        assert engine is not None
        ids = [i] if engine.exact[i] else self._line_ids(end)
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
        return NEUTRAL

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
