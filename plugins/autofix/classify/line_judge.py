"""One line at a time: the first rule that matches, the verdict it gives, and the bookkeeping
that follows (counts, summaries, retry notices, error blocks, the explain trace).

``LineJudge`` holds what the lines decide (counts, blocks, summaries, rule state);
``Classifier`` (classifier.py) adds the input side: partial lines, the engine scan, the tail.
"""

from __future__ import annotations

import time
from collections import deque
from typing import Any

from autofix.classify.blocks import (
    BlockKind,
    BlockText,
    BlockTracker,
    block_kind,
    heads_stack_trace,
)
from autofix.classify.stream_report import LineVerdict, Verdict
from autofix.patterns.compiled import (
    CHECK_FOLDED_SUBSTRING,
    CHECK_REGEX,
    CHECK_SUBSTRING,
    VERDICT_CACHE_ENTRIES,
    VERDICT_CACHE_LINE_CHARS,
    CompiledRules,
    ascii_lower,
)
from autofix.patterns.model import ERROR_KINDS
from autofix.result import BlockSource, BlockWeight, Evidence

SUMMARY_LINES = 5  # success and failure summary lines kept per stream, each
_WEIGHT_ORDER = {
    BlockWeight.RECOVERED: 0,
    BlockWeight.VACUOUS: 1,
    BlockWeight.ERROR: 2,
    BlockWeight.FATAL: 3,
    BlockWeight.SUMMARY: 4,
}
_WEIGHTS = {weight.value: weight for weight in BlockWeight}
# ``weight.value`` is a Python-level property call; a dropped block needs its name per block.
_WEIGHT_NAMES = {weight: weight.value for weight in BlockWeight}
# A line's verdict: deciding rule position (-1: neutral), timed out, the block kind it opens,
# and the rule id when it is plain noise (no block): the common case, settled fastest.
Decision = tuple[int, bool, BlockKind | None, str | None]
NEUTRAL: Decision = (-1, False, None, None)


def remember(cache: dict[str, Any], line: str, decision: Decision) -> None:
    """Keep a line's decision in a rule set's bounded cache (lines up to the cap only)."""
    if len(line) <= VERDICT_CACHE_LINE_CHARS:
        if len(cache) >= VERDICT_CACHE_ENTRIES:
            cache.clear()  # bounded; simple beats LRU bookkeeping on the hot path
        cache[line] = decision


class LineJudge:
    """The per-line decisions and what they accumulate; ``Classifier`` feeds it."""

    def __init__(
        self,
        rules: CompiledRules,
        operation: str = "",
        max_blocks: int = 20,
        *,
        stream: str = "stderr",
        explain: bool = False,
        verdict_cache: bool = True,
    ) -> None:
        self._settings = rules.settings
        self._set = rules.ruleset(operation, stream)
        self._rules = self._set.rules
        self._checks = self._set.checks
        self._max_blocks = max_blocks
        self._stream = stream
        self._noise = self._error = 0
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
        self._last_retry_line = -2
        self._line_no = 0
        # Tail candidates of the current chunk, in order: a line, or a (start, stop) range of
        # counted neutral lines, resolved once per chunk (most are pushed out before then).
        self._tail_events: list[str | tuple[int, int]] = []
        self._cache = self._set.verdicts if verdict_cache else None
        self.explained: list[LineVerdict] | None = [] if explain else None

    # ---- one line ----------------------------------------------------------------------

    def _handle(self, line: str, mask: int | None) -> None:
        """One line; ``mask``: the rules its keys may reveal (None: it holds no key)."""
        self._line_no += 1
        if self._tracker.open:
            if self._tracker.offer(line):
                self._continue_block(line)
                return
            self._end_open_block()
        self._apply(line, NEUTRAL if mask is None else self._decide(line, mask))

    def _apply(self, line: str, decision: Decision) -> None:
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
        rule_id = rule.id
        hits = self._hits
        hits[rule_id] = hits.get(rule_id, 0) + 1
        rule_kind = rule.kind
        if timed_out or rule_kind in ERROR_KINDS:  # Rule.is_error, without two property calls
            self._error += 1
            self._tail_events.append(line.strip()[:300])
            if self.explained is not None:
                self._explain(line, "error", rule_id)
            if rule_kind == "failure_summary":
                self._summary(line, rule_id, failure=True)
                weight = BlockWeight.SUMMARY
            else:
                weight = _WEIGHTS[rule.weight]
            self._error_line(line, rule_id, kind, weight)
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
        self._last_retry_line = self._line_no

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

    def _decide(self, line: str, mask: int) -> Decision:
        """The verdict from the rules; cached per rule set when it can't depend on state.

        A verdict is a pure function of the (capped) line while no rule is disabled and no
        user regex timed out, so only such verdicts are stored or used. Block state is
        applied by the caller, never cached.
        """
        cache = self._cache
        pristine = cache is not None and not self._disabled
        if pristine:
            assert cache is not None
            found: Decision | None = cache.get(line)
            if found is not None:
                return found
        rule_set = self._set
        plan = rule_set._plans.get(mask) or rule_set.plan(mask)
        match = self._first_match(line, plan)
        if match is None:
            decision = NEUTRAL
        else:
            decision = self._decision(*match, line)
            if match[1]:  # timed out
                return decision
        if pristine and not self._disabled:
            assert cache is not None
            remember(cache, line, decision)
        return decision

    def _decision(self, position: int, timed_out: bool, line: str) -> Decision:
        rule = self._rules[position]
        is_error = timed_out or rule.is_error
        rule_kind = rule.kind
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
            if _WEIGHT_ORDER[weight] > _WEIGHT_ORDER[self._block_weight]:
                self._block_weight = weight
        else:
            self._close_block()
            if (
                weight is BlockWeight.ERROR
                and self._last_retry_line == self._line_no - 1
                and heads_stack_trace(line, kind)
            ):
                # The retry notice is this trace's log message (logger.exception("attempt 1
                # failed, retrying")): the trace belongs to the retried attempt.
                weight = BlockWeight.RECOVERED
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
            if self.explained is not None:
                self._explain(line, "noise", self._noise_rule, in_block=True)
            return
        self._error += 1 + pending
        self._tail_is_error = True
        block = self._block
        if block is not None:
            for _ in range(pending):
                block.add("")
            block.add(line)
        self._last_error_line = self._line_no
        self._tail_events.append(line.strip()[:300])
        if self.explained is not None:
            self._explain(line, "error", self._block_rule, in_block=True)

    def _end_open_block(self) -> None:
        self._pending_blank = 0
        self._tracker.close()

    def _close_block(self) -> None:
        if self._tracker.open:
            self._end_open_block()
        if self._block is not None:
            # A block past max_blocks is only counted: its text is never built.
            kept = len(self._blocks) < self._max_blocks
            text = self._block.text() if kept else ""
            self._add_block(text, self._block_rule, self._block_line, weight=self._block_weight)
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
            name = _WEIGHT_NAMES[weight]
            self._dropped_weights[name] = self._dropped_weights.get(name, 0) + 1
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
