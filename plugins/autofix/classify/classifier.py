"""The streaming classifier: bytes or lines in, counts and the first error blocks out.

Each chunk is decoded, normalised and lower-cased (ASCII) once; the rule keys are found with
``bytes.find`` over the whole chunk, and only lines holding a key are checked against the
rules, in order, first match wins. Lines between candidates are counted, not visited, unless
a multi-line block is open. Memory is bounded: counts, a short tail, and at most
``max_blocks`` blocks of bounded size.
"""

from __future__ import annotations

import time
from collections import deque
from typing import Literal

from pydantic import BaseModel, Field

from autofix.classify.blocks import BlockKind, BlockText, BlockTracker, block_kind
from autofix.classify.normalize import normalize_line, normalize_text
from autofix.patterns.compiled import FOLD_TRAPS, CompiledRule, CompiledRules, ascii_lower
from autofix.result import ErrorBlock

Verdict = Literal["noise", "neutral", "error"]
TAIL_LINES = 5
_ALL: tuple[int, ...] = (-1,)  # marker: check every rule on this line


class ClassifyReport(BaseModel):
    """What one stream contained."""

    noise_lines: int = 0
    neutral_lines: int = 0
    error_lines: int = 0
    blocks: list[ErrorBlock] = Field(default_factory=list)
    blocks_dropped: int = 0  # error blocks past ``max_blocks``: counted, not kept
    rule_hits: dict[str, int] = Field(default_factory=dict)
    disabled_rules: list[str] = Field(default_factory=list)
    warnings: list[str] = Field(default_factory=list)
    patterns_source: str = "defaults"
    stream: str = "stderr"
    tail: list[str] = Field(default_factory=list)  # last non-blank lines, for messages

    @property
    def total_lines(self) -> int:
        return self.noise_lines + self.neutral_lines + self.error_lines


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
    ) -> None:
        self._source = rules.source
        self._settings = rules.settings
        self._set = rules.ruleset(operation, stream)
        self._rules = self._set.rules
        self._max_len = rules.settings.max_line_length
        self._max_bytes = self._max_len * 4 + 4
        self._max_blocks = max_blocks
        self._stream = stream
        self._noise = self._neutral = self._error = 0
        self._hits: dict[str, int] = {}
        self._blocks: list[ErrorBlock] = []
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
        self._noise_rule: str | None = None
        self._pending_blank = 0
        self._last_error_line = -2
        self._line_no = 0
        self._tail: deque[str] = deque(maxlen=TAIL_LINES)
        self._partial = bytearray()
        self._discarding = False
        self._finished: ClassifyReport | None = None
        self._has_user_regex = any(c.user_regex for c in self._rules)
        self.explained: list[LineVerdict] | None = [] if explain else None

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
        self._handle(line, _ALL if self._set.unkeyed else self._positions_for(line))

    def finish(self) -> ClassifyReport:
        if self._finished is not None:
            return self._finished
        if self._partial:
            self._process(bytes(self._partial) + b"\n")
            self._partial.clear()
        self._close_block()
        self._finished = ClassifyReport(
            noise_lines=self._noise,
            neutral_lines=self._neutral,
            error_lines=self._error,
            blocks=self._blocks,
            blocks_dropped=self._dropped,
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
        text = normalize_text(data.decode("utf-8", errors="replace"))
        raw = text.encode("utf-8", "surrogatepass")
        if self._set.unkeyed:
            for line in text.split("\n")[:-1]:
                self._handle(line[: self._max_len], _ALL)
            return
        lowered = raw.lower()
        candidates: dict[int, list[tuple[int, ...]]] = {}
        find = lowered.find
        rfind = lowered.rfind
        for key, positions in self._set.keys:
            hit = find(key)
            while hit != -1:
                start = rfind(b"\n", 0, hit) + 1
                found = candidates.get(start)
                if found is None:
                    candidates[start] = [positions]
                else:
                    found.append(positions)
                hit = find(key, find(b"\n", hit) + 1)
        if not text.isascii():
            for trap in FOLD_TRAPS:
                encoded = trap.encode()
                hit = find(encoded)
                while hit != -1:
                    candidates[rfind(b"\n", 0, hit) + 1] = [_ALL]
                    hit = find(encoded, find(b"\n", hit) + 1)
        cursor = 0
        for start in sorted(candidates):
            if start < cursor:
                continue
            cursor = self._skip_to(raw, cursor, start)
            end = raw.find(b"\n", start)
            line = raw[start:end].decode("utf-8", "surrogatepass")[: self._max_len]
            found = candidates[start]
            merged = found[0] if len(found) == 1 else tuple(sorted(set().union(*found)))
            self._handle(line, merged)
            cursor = end + 1
        self._skip_to(raw, cursor, len(raw))

    def _skip_to(self, raw: bytes, cursor: int, stop: int) -> int:
        """Lines in [cursor, stop) hold no key: feed them to an open block, then count the rest."""
        while self._tracker.open and cursor < stop:
            end = raw.find(b"\n", cursor)
            self._handle(raw[cursor:end].decode("utf-8", "surrogatepass")[: self._max_len], None)
            cursor = end + 1
        if cursor < stop:
            count = raw.count(b"\n", cursor, stop)
            if count:
                if self.explained is not None:
                    for line in raw[cursor:stop].split(b"\n")[:count]:
                        self._handle(line.decode("utf-8", "surrogatepass")[: self._max_len], None)
                else:
                    self._neutral += count
                    self._line_no += count
                    self._remember_tail(raw, cursor, stop)
        return stop

    def _remember_tail(self, raw: bytes, floor: int, stop: int) -> None:
        end = stop - 1
        taken = 0
        lines: list[str] = []
        while end > floor and taken < TAIL_LINES:
            start = raw.rfind(b"\n", floor, end) + 1 or floor
            line = raw[start:end].decode("utf-8", "surrogatepass").strip()
            if line:
                lines.append(line[:300])
                taken += 1
            end = start - 1
            if start <= floor:
                break
        self._tail.extend(reversed(lines))

    # ---- one line ----------------------------------------------------------------------

    def _handle(self, line: str, positions: tuple[int, ...] | None) -> None:
        self._line_no += 1
        if self._tracker.open:
            if self._tracker.offer(line):
                self._continue_block(line)
                return
            self._end_open_block()
        match = self._first_match(line, positions) if positions is not None else None
        if match is None:
            self._neutral += 1
            if line.strip():
                self._tail.append(line.strip()[:300])
            self._explain(line, "neutral", None)
            return
        rule, timed_out = match
        self._hits[rule.id] = self._hits.get(rule.id, 0) + 1
        if rule.is_error or timed_out:
            self._error += 1
            self._tail.append(line.strip()[:300])
            self._explain(line, "error", rule.id)
            self._error_line(line, rule.id)
        else:
            self._noise += 1
            self._explain(line, "noise", rule.id)
            kind = block_kind(line, is_error=False)
            if kind is not None:
                self._tracker.start(kind, line)
                self._block_kind_noise = True
                self._noise_rule = rule.id

    def _positions_for(self, line: str) -> tuple[int, ...]:
        folded = ascii_lower(line).encode("utf-8", "surrogatepass")
        if not line.isascii() and any(trap in line for trap in FOLD_TRAPS):
            return self._set.all_positions
        found: set[int] = set()
        for key, positions in self._set.keys:
            if key in folded:
                found.update(positions)
        return tuple(sorted(found))

    def _first_match(
        self, line: str, positions: tuple[int, ...]
    ) -> tuple[CompiledRule, bool] | None:
        """The deciding rule, and whether it timed out (then the line counts as an error)."""
        if positions[:1] == _ALL:
            positions = self._set.all_positions
        folded = ascii_lower(line)
        rules = self._rules
        for position in positions:
            if position in self._disabled:
                continue
            rule = rules[position]
            if rule.user_regex:
                if not rule.may_match(folded):
                    continue
                matched = self._user_search(position, line)
                if matched is None:
                    return rule, True  # fail safe
                if matched:
                    return rule, False
            elif rule.matches(line, folded):
                return rule, False
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
            self._add_block(message, "patterns-budget", self._line_no, source="runner")
        return found

    def _warn(self, message: str) -> None:
        if len(self._warnings) < 50:
            self._warnings.append(message)

    # ---- blocks ------------------------------------------------------------------------

    def _error_line(self, line: str, rule_id: str) -> None:
        kind = block_kind(line, is_error=True)
        if (
            self._block is not None
            and self._last_error_line == self._line_no - 1
            and kind is BlockKind.GENERIC
        ):
            self._block.add(line)  # adjacent error lines form one block
        else:
            self._close_block()
            self._block = BlockText(line)
            self._block_rule = rule_id
            self._block_line = self._line_no
        self._block_kind_noise = False
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
        if self._block is not None:
            for _ in range(pending):
                self._block.add("")
            self._block.add(line)
        self._last_error_line = self._line_no
        self._tail.append(line.strip()[:300])
        self._explain(line, "error", self._block_rule, in_block=True)

    def _end_open_block(self) -> None:
        self._neutral += self._pending_blank
        self._pending_blank = 0
        self._tracker.close()

    def _close_block(self) -> None:
        if self._tracker.open:
            self._end_open_block()
        if self._block is not None:
            self._add_block(self._block.text(), self._block_rule, self._block_line)
            self._block = None

    def _add_block(
        self, text: str, rule_id: str | None, line_no: int, source: str | None = None
    ) -> None:
        if len(self._blocks) >= self._max_blocks:
            self._dropped += 1
            return
        self._blocks.append(
            ErrorBlock(text=text, rule_id=rule_id, source=source or self._stream, line_no=line_no)
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
