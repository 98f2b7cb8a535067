"""The streaming classifier: bytes or lines in, counts and the first error blocks out.

With the engine (patterns/engine.py), each chunk of whole lines is scanned once, as bytes, for
every rule; per line the smallest id wins (the first rule in order). Lines won by a plain noise
rule are counted in bulk, lines without a hit are only counted, and Python visits only the
rest, in order: error lines, summaries, retry notices, warning heads, lines with terminal
control (normalised, then scanned again), rules the engine only prefilters, and the lines an
open block takes (engine_walk.py).

The fallback (no ``hyperscan``): each chunk is decoded, normalised and lower-cased (ASCII)
once; one Aho–Corasick pass finds every rule key in it, and only lines holding a key are
checked, against the rules those keys may reveal, in rule order, first match wins. A bounded
verdict cache, shared per rule set, answers lines seen before.

Memory is bounded either way: counts, a short tail, at most ``max_blocks`` blocks of bounded
size, summaries, and the cache.

This module is the input side and the fallback; the engine path is ``EngineWalk``
(engine_walk.py), what happens to one decided line is ``LineJudge`` (line_judge.py), and what
comes out is ``ClassifyReport`` (stream_report.py).
"""

from __future__ import annotations

import re
from typing import Any

from autofix.classify.engine_walk import TAIL_LINES, EngineWalk
from autofix.classify.normalize import normalize_line, normalize_text
from autofix.classify.stream_report import ClassifyReport, error_blocks
from autofix.patterns.compiled import CompiledRules

_NON_SPACE = re.compile(rb"\S")


class Classifier(EngineWalk):
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
        self._start_engine(rules, verdict_cache, engine)
        self._source = rules.source
        self._max_bytes = self._max_len * 4 + 4
        self._partial = bytearray()
        self._discarding = False
        self._finished: ClassifyReport | None = None

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
