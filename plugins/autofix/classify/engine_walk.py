"""The engine path of the classifier: one scan of a chunk of whole lines, then Python only
for the lines that need it (classifier.py's docstring has the whole picture).

Per line the smallest engine id wins (the first rule in order). Lines won by a plain noise rule
are counted in bulk, lines without a hit are only counted, and the walk visits the rest in
order: error lines, summaries, retry notices, warning heads, lines with terminal control
(normalised, then scanned again), rules the engine only prefilters, and the lines an open block
takes. A warning head decided by a plain noise rule, whose next line needs no Python, is
settled in bulk with the one line its block may take before the walk (``_settle_heads``); a
success summary and a retry notice whose block ends at once settle on short paths; everything
else on ``_engine_line``, the same per-line path as the fallback's.
"""

from __future__ import annotations

from bisect import bisect_left
from collections import deque

from autofix.classify.blocks import continues_generic
from autofix.classify.line_judge import NEUTRAL, Decision, LineJudge, remember
from autofix.classify.normalize import drop_overwritten, normalize_text
from autofix.patterns import engine as hs
from autofix.patterns.compiled import (
    SETTLE_FULL,
    SETTLE_PY_WARNING,
    SETTLE_RETRY,
    SETTLE_SUCCESS,
    CompiledRules,
    EngineSet,
    ascii_lower,
)
from autofix.patterns.newlines import count_newlines, line_summary

_CONTENT_KINDS = ("error", "failure_summary", "success_summary")  # lines a tail shows
TAIL_LINES = 5  # last non-noise lines kept for messages
TAIL_SCAN_LINES = 200  # lines walked back from a chunk's end to find its tail


class EngineWalk(LineJudge):
    """``LineJudge`` fed by the engine: chunks in (``_process_engine``), decided lines out."""

    def _start_engine(self, rules: CompiledRules, verdict_cache: bool, engine: bool | None) -> None:
        """The engine path's state (``Classifier.__init__`` calls it). ``engine``: None uses
        the engine when installed; False forces the fallback path."""
        self._max_len = rules.settings.max_line_length
        self._tail: deque[str] = deque(maxlen=TAIL_LINES)
        self._engine: EngineSet | None = None if engine is False else self._set.engine()
        self._walked: dict[int, bool] = {}  # this chunk's walked lines: shown in a tail?
        self._hits_sorted: list[int] = []  # this chunk's engine hits, ``end << ID_BITS | id``
        self._slow_ids: dict[int, list[int]] = {}  # a normalised line's ids, by its raw end
        self._engine_cache = self._set.engine_verdicts if verdict_cache else None
        # Warning heads settled in bulk (``_settle_heads``): head end -> (its noise rule, the
        # follower's end if the head took it, else -1, and the follower's plain noise rule).
        self._settled: dict[int, tuple[str, int, str | None]] = {}
        self._plain_ids = self._engine.plain_ids if self._engine is not None else ()
        if engine and self._engine is None:
            raise RuntimeError("the pattern engine (hyperscan) is not installed or is switched off")

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
        slow = [end for end, i in best.items() if i == hs.F_SLOW]
        if slow:
            self._slow_lines(data, best, clean, slow)
        plain = engine.plain
        hits_by_id = self._hits
        rules = self._rules
        firsts, todo = line_summary(best, engine.special)
        for i, count in firsts.items():
            position = plain[i]
            if position >= 0:
                self._noise += count
                rule_id = rules[position].id
                hits_by_id[rule_id] = hits_by_id.get(rule_id, 0) + count
        self._walked.clear()
        self._settled.clear()
        if self.explained is not None:
            todo = _line_ends(data)
        elif not self._disabled and (hs.F_PY_WARNING in firsts or hs.F_NODE_WARNING in firsts):
            todo = self._settle_heads(data, best, clean, todo)
        # The walk counts the lines before its last one; the rest are counted here, once.
        cursor = self._walk(data, best, clean, todo) if todo or self._tracker.open else 0
        self._line_no += count_newlines(data, cursor, len(data))
        self._engine_tail(data, best, clean)

    def _scan(self, data: bytes) -> dict[int, int]:
        """Line end -> the smallest engine id that hit the line (the first rule), in C loops.
        Every hit stays in ``_hits_sorted`` (ascending): a line's other ids are a bisect away."""
        assert self._engine is not None
        self._hits_sorted, first = self._engine.engine.scan_by_line(data)
        self._slow_ids.clear()
        return first

    def _line_ids(self, end: int) -> list[int]:
        """Every engine id that hit the line ending at ``end``, ascending."""
        found = self._slow_ids.get(end)
        if found is not None:
            return found
        hits = self._hits_sorted
        low = bisect_left(hits, end << hs.ID_BITS)
        high = bisect_left(hits, (end + 1) << hs.ID_BITS, low)
        return sorted({value & hs.ID_MASK for value in hits[low:high]})

    def _slow_lines(
        self, data: bytes, best: dict[int, int], clean: dict[int, bytes], ends: list[int]
    ) -> None:
        """The lines ending at ``ends``, with terminal control, invalid UTF-8 or past the cap:
        normalise them as the fallback does, then scan them again together; their first hits
        replace the raw ones."""
        engine = self._engine
        assert engine is not None
        # One batch: no escape or invalid sequence spans the joining newlines, so this equals
        # normalising each line alone, with the per-line work in C.
        raw = b"\n".join(map(drop_overwritten, hs.lines_ending_at(data, ends)))
        lines = normalize_text(raw.decode("utf-8", "replace")).split("\n")
        cap = self._max_len
        fixed = (
            "\n".join(line[:cap] for line in lines).encode("utf-8", "surrogatepass").split(b"\n")
        )
        by_line: dict[int, set[int]] = {}
        for value in hs.scan_lines(engine.engine.scan, fixed):
            i = value & hs.ID_MASK
            if i != hs.F_SLOW:  # a stray ESC left after normalising is not slow again
                by_line.setdefault(value >> hs.ID_BITS, set()).add(i)
        for index, (end, line) in enumerate(zip(ends, fixed, strict=True)):
            clean[end] = line
            found = by_line.get(index)
            if found is None:
                del best[end]
            else:
                ids = self._slow_ids[end] = sorted(found)
                best[end] = ids[0]

    def _walk(
        self, data: bytes, best: dict[int, int], clean: dict[int, bytes], todo: list[int]
    ) -> int:
        """In order: the lines that need Python, and the lines an open block takes. Returns
        the start of the first line not counted in ``_line_no``."""
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
                self._line_no += count_newlines(data, cursor, start)
            # An open block is offered the line first: the whole path.
            short = settle and tracker.kind is None and not self._disabled
            how = settle[best[end]] if short else SETTLE_FULL
            if how == SETTLE_SUCCESS:
                self._success_line(data, best[end], clean, start, end)
            elif how == SETTLE_RETRY:
                self._retry_line(data, best, clean, start, end)
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
        return cursor

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
        self._count(rule_id)
        self._walked[end] = True
        self._tail_is_error = False
        self._summary(line, rule_id, failure=False)

    def _settle_heads(
        self, data: bytes, best: dict[int, int], clean: dict[int, bytes], todo: list[int]
    ) -> list[int]:
        """``_warning``'s short path for every warning head of the chunk at once, where its
        follower needs no Python (no hit, or plain noise): counts and the tail's marks only.
        Returns the rest of ``todo``. A head that an open block reaches after all (the walk
        visits it line by line) is unsettled first (``_unsettle``): the whole path decides it."""
        plain_ids = self._plain_ids
        hits = self._hits
        walked = self._walked
        settled = self._settled
        sorted_hits = self._hits_sorted
        count = len(sorted_hits)
        slow = self._slow_ids
        size = len(data)
        find = data.find
        noise = 0
        rest: list[int] = []
        keep = rest.append
        for end in todo:
            how = best[end]
            if (how != hs.F_PY_WARNING and how != hs.F_NODE_WARNING) or end + 1 >= size:
                keep(end)
                continue
            if slow and end in slow:
                first = self._first_rule_id(end)
            else:  # _first_rule_id, inline: the head's first rule, past the flags
                k = bisect_left(sorted_hits, end << hs.ID_BITS | hs.N_FLAGS)
                value = sorted_hits[k] if k < count else -1
                first = value & hs.ID_MASK if value >> hs.ID_BITS == end else -1
            rule_id = plain_ids[first] if first >= 0 else None
            stop = find(b"\n", end + 1)
            i = best.get(stop)
            was_id = None if i is None else plain_ids[i]
            if rule_id is None or stop < 0 or (i is not None and was_id is None):
                keep(end)  # not plain noise, or a follower that needs Python (or is cut)
                continue
            raw = clean.get(stop)
            if raw is None:
                raw = data[end + 1 : stop]
            taken = _takes(how == hs.F_PY_WARNING, raw)
            hits[rule_id] = hits.get(rule_id, 0) + 1
            noise += 1
            walked[end] = False
            if not taken:
                settled[end] = (rule_id, -1, None)
                continue
            walked[stop] = False
            if was_id is not None:  # counted in bulk as plain noise: now the block's, no hit
                self._uncount(was_id)
            else:
                noise += 1
            settled[end] = (rule_id, stop, was_id)
        self._noise += noise
        return rest

    def _unsettle(self, end: int) -> None:
        """If the line ending at ``end`` is a head settled in bulk, undo its counts: the walk
        reached it after all (an open block, or a head before it that takes it)."""
        head = self._settled.pop(end, None)
        if head is None:
            return
        rule_id, stop, was_id = head
        self._uncount(rule_id)
        self._noise -= 1
        if stop < 0:
            return
        self._walked.pop(stop, None)  # the line it took is shown in a tail again, if it may be
        if was_id is not None:
            self._count(was_id)
        else:
            self._noise -= 1

    def _count(self, rule_id: str) -> None:
        """One hit of ``rule_id`` more (a line settled on a short path)."""
        self._hits[rule_id] = self._hits.get(rule_id, 0) + 1

    def _uncount(self, rule_id: str) -> None:
        """One hit of ``rule_id`` less (the rule counted a line in bulk that is not its own)."""
        hits = self._hits
        hits[rule_id] -= 1
        if not hits[rule_id]:
            del hits[rule_id]

    def _retry_line(
        self, data: bytes, best: dict[int, int], clean: dict[int, bytes], start: int, end: int
    ) -> None:
        """A retry notice outside any block: ``_engine_line`` and ``_apply``, short, when the
        generic noise block it opens ends at the next line (not indented, no gutter)."""
        stop = data.find(b"\n", end + 1)
        if stop < 0:  # the chunk's last line: its block may go on in the next chunk
            self._engine_line(data, best, clean, start, end)
            return
        follower = clean.get(stop)
        if follower is None:
            follower = data[end + 1 : stop]
        if continues_generic(follower.decode("utf-8", "replace")):
            self._engine_line(data, best, clean, start, end)
            return
        rule_id = self._rules[best[end] - hs.N_FLAGS].id
        self._line_no += 1
        self._count(rule_id)
        self._noise += 1
        self._walked[end] = False
        self._retried()

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
        taken = _takes(how == SETTLE_PY_WARNING, raw)
        self._count(self._rules[position].id)
        self._noise += 1
        self._line_no += 1
        self._walked[end] = False
        if not taken:
            return follower
        self._line_no += 1
        self._walked[stop] = False
        if self._settled:  # the line it takes is a head settled in bulk: undo that first
            self._unsettle(stop)
        i = best.get(stop)
        was = -1 if i is None else plain[i]
        if was >= 0:  # counted in bulk as plain noise: the block's noise now, without a hit
            self._uncount(self._rules[was].id)
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
        if self._settled:
            self._unsettle(end)
        i = best.get(end)
        position = -1 if i is None else engine.plain[i]
        self._line_no += 1
        if self._tracker.kind is not None:
            if self._tracker.offer(line):
                if position >= 0:  # counted in bulk as plain noise; the block decides it now
                    self._noise -= 1
                    self._uncount(self._rules[position].id)
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
            self._walked[end] = decision[0] < 0 or decision[1] or rule.kind in _CONTENT_KINDS
            self._apply(line, decision)

    def _engine_decision(self, i: int, line: str, end: int) -> Decision:
        """The first rule that really matches a line the engine flagged; cached per rule set
        on the same terms as ``LineJudge._decide``: no rule disabled, no user regex timed out."""
        cache = self._engine_cache
        if cache is None or self._disabled:
            return self._engine_match(i, line, end)
        found: Decision | None = cache.get(line)
        if found is not None:
            return found
        decision = self._engine_match(i, line, end)
        if not decision[1] and not self._disabled:
            remember(cache, line, decision)
        return decision

    def _engine_match(self, i: int, line: str, end: int) -> Decision:
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


def _takes(python: bool, follower: bytes) -> bool:
    """Does a Python (else Node) warning head's block take its next line? blocks.py's rule,
    on bytes; for Python ``blocks._indented``, with str's idea of whitespace."""
    if python:
        return follower[:1] in (b" ", b"\t") and bool(follower.decode("utf-8", "replace").strip())
    return follower.startswith(b"(Use `node --trace-")


def _line_ends(data: bytes) -> list[int]:
    ends: list[int] = []
    end = data.find(b"\n")
    while end != -1:
        ends.append(end)
        end = data.find(b"\n", end + 1)
    return ends
