"""ResponseParser: the one place where success is decided. Fail-safe: when unsure, failure."""

from __future__ import annotations

import logging
from pathlib import Path

from autofix.agents.base import AgentOutcome
from autofix.agents.failures import kind_from_exit_code
from autofix.agents.watch import EarlyStop
from autofix.classify.blocks import headline
from autofix.classify.classifier import Classifier
from autofix.classify.report import ClassifyReport
from autofix.classify.verdict import weigh
from autofix.patterns.compiled import CompiledRules
from autofix.patterns.loader import PatternStore, store_for
from autofix.redact import redact
from autofix.result import (
    FAILURE_KINDS,
    ErrorBlock,
    FailureKind,
    FinishReason,
    ParseResult,
    RetryClass,
    RunStatus,
    Status,
    bounded_sample,
    format_error_message,
)

log = logging.getLogger(__name__)

DEBUG_STDERR_CHARS = 64 * 1024
_CHUNK = 1 << 20

# A caller's own run status word (plain agents, ``autofix classify --run-status``) → kind.
_RUN_STATUS: dict[str, FailureKind] = {
    "failed": FailureKind.UNKNOWN,
    "cancelled": FailureKind.CANCELLED,
    "limit_reached": FailureKind.RATE_LIMIT,
    "timed_out": FailureKind.TIMEOUT,
    "crashed": FailureKind.CRASHED,
}


class ResponseParser:
    """Turns an exit code, the agent's events and its stderr into a ParseResult."""

    def __init__(self, patterns: str | Path | PatternStore | None = None) -> None:
        if isinstance(patterns, PatternStore):
            self._store = patterns
        else:
            self._store = store_for(patterns)  # one store per path: shared hot reload

    @property
    def rules(self) -> CompiledRules:
        return self._store.current()

    def classifier(self, operation: str = "", stream: str = "stderr") -> Classifier:
        """A classifier for live feeding; pass its ``finish()`` report to ``parse``."""
        return Classifier(self._store.current(), operation, stream=stream)

    def _report(
        self, value: str | bytes | ClassifyReport, operation: str, stream: str
    ) -> ClassifyReport:
        if isinstance(value, ClassifyReport):
            return value
        classifier = self.classifier(operation, stream)
        view = memoryview(value.encode("utf-8", "replace") if isinstance(value, str) else value)
        for offset in range(0, len(view), _CHUNK):
            classifier.feed(bytes(view[offset : offset + _CHUNK]))
        return classifier.finish()

    def parse(
        self,
        exit_code: int | None,
        stderr: str | bytes | ClassifyReport = "",
        stdout: str | bytes | ClassifyReport = "",
        *,
        run_status: str | None = None,
        operation: str = "",
        agent_outcome: AgentOutcome | None = None,
        has_event_stream: bool = False,
        timed_out_after: float | None = None,
        crash: BaseException | str | None = None,
        signal_name: str | None = None,
        cancelled: bool = False,
        early_stop: EarlyStop | None = None,
    ) -> ParseResult:
        """The verdict. What the runner knows for sure (its timeout, its own early stop or kill,
        a signal) comes first; then the agent's own events; then the exit code and stderr."""
        event_stream = has_event_stream or agent_outcome is not None
        err = self._report(stderr, operation, "stderr")
        out = None if event_stream else self._report(stdout, operation, "stdout")
        reports = [err] if out is None else [err, out]
        base = _base(exit_code, run_status, operation, reports)
        if agent_outcome is not None:
            _copy_outcome(base, agent_outcome)
        # Retried blocks don't count; a success summary can outweigh logged ones (verdict.py).
        weighing = weigh(reports)
        blocks = weighing.blocks
        base.evidence = weighing.evidence
        base.stderr_sample = bounded_sample(err.sample())  # assignment skips the validator

        def fail(
            kind: FailureKind, message_lines: list[str], retry_after_s: float | None = None
        ) -> ParseResult:
            return _finish(base, kind, operation, message_lines, blocks, retry_after_s)

        if crash is not None:
            return fail(FailureKind.CRASHED, [f"Wrapper crashed: {_describe(crash)}"])
        if early_stop is not None:  # it ended the run: a timeout or signal came after it
            return fail(early_stop.kind, [early_stop.message], early_stop.retry_after_s)
        if timed_out_after is not None:
            return fail(FailureKind.TIMEOUT, [f"Operation timed out after {timed_out_after:g}s"])
        if cancelled:
            return fail(FailureKind.CANCELLED, ["Cancelled: autofix stopped the agent"])
        if signal_name:
            kind = FailureKind.CANCELLED if signal_name == "SIGINT" else FailureKind.KILLED
            return fail(kind, [f"Process killed by {signal_name}", *_block_lines(blocks)])
        if agent_outcome is not None:
            decided = _decide_agent(agent_outcome, exit_code, weighing.deciding)
            if decided is not None:
                kind, lines = decided
                return fail(kind, lines, agent_outcome.retry_after_s)
        elif has_event_stream:
            return fail(
                FailureKind.UNKNOWN,
                ["The agent's event stream was not parsed (no outcome); failing safe"],
            )
        if exit_code is None:
            return fail(
                FailureKind.UNKNOWN,
                ["No exit code was recorded; failing safe", *_block_lines(blocks)],
            )
        if (
            run_status is not None
            and run_status != RunStatus.COMPLETED.value
            and agent_outcome is None
        ):
            kind = _RUN_STATUS.get(run_status, FailureKind.UNKNOWN)
            return fail(kind, [f"Run status {run_status!r}", *_block_lines(blocks)])
        if exit_code != 0:
            kind = kind_from_exit_code(exit_code) or FailureKind.UNKNOWN
            quoted = _block_lines(blocks)[:2]
            if quoted:
                return fail(kind, [*quoted, f"(exit code {exit_code})"])
            tail = list(err.tail[-2:]) or (list(out.tail[-2:]) if out else [])
            return fail(kind, [f"Exit code {exit_code}", *tail])
        if weighing.deciding:
            return fail(FailureKind.UNKNOWN, _block_lines(weighing.deciding))
        if isinstance(stderr, str | bytes) and stderr and log.isEnabledFor(logging.DEBUG):
            raw = stderr if isinstance(stderr, str) else stderr.decode("utf-8", "replace")
            log.debug(
                "autofix: success with stderr (kept for false negatives):\n%s",
                redact(raw[:DEBUG_STDERR_CHARS]),
            )
        base.success = True
        base.status = Status.COMPLETED
        base.retry_class = RetryClass.NONE
        return base


def _describe(crash: BaseException | str) -> str:
    if isinstance(crash, BaseException):
        text = str(crash)
        return f"{type(crash).__name__}: {text}" if text else type(crash).__name__
    return crash


def _base(
    exit_code: int | None, run_status: str | None, operation: str, reports: list[ClassifyReport]
) -> ParseResult:
    hits: dict[str, int] = {}
    warnings: list[str] = []
    for report in reports:
        for rule_id, count in report.rule_hits.items():
            hits[rule_id] = hits.get(rule_id, 0) + count
        warnings.extend(report.warnings)
        if report.blocks_dropped:
            warnings.append(
                f"{report.blocks_dropped} more error blocks on {report.stream} were counted, not kept"
            )
    return ParseResult(
        success=False,
        status=Status.FAILED,
        operation=operation,
        exit_code=exit_code,
        run_status=run_status,
        noise_lines=sum(r.noise_lines for r in reports),
        neutral_lines=sum(r.neutral_lines for r in reports),
        error_lines=sum(r.error_lines for r in reports),
        matched_rules=list(hits),
        patterns_source=reports[0].patterns_source,
        warnings=warnings,
    )


def _copy_outcome(result: ParseResult, outcome: AgentOutcome) -> None:
    result.run_status = outcome.run_status
    result.session_id = outcome.session_id
    result.final_text = outcome.final_text
    result.cost_usd = outcome.cost_usd
    result.usage = outcome.usage
    result.num_turns = outcome.num_turns
    result.finish_reason = outcome.finish_reason
    if outcome.notes:  # e.g. unreadable events the reader skipped
        result.warnings = [*result.warnings, *outcome.notes]


def _decide_agent(
    outcome: AgentOutcome, exit_code: int | None, blocks: list[ErrorBlock]
) -> tuple[FailureKind, list[str]] | None:
    """A failure verdict from the agent's own events, or None when they say success."""
    errors = [e for e in outcome.errors if e.strip()]
    if outcome.failure_kind is not None:
        return outcome.failure_kind, errors or [f"Agent failed: {outcome.failure_kind.value}"]
    if outcome.finish_reason is FinishReason.LENGTH:
        return FailureKind.MAX_TOKENS, errors or [
            "The answer was truncated (finish reason: length)"
        ]
    if outcome.finish_reason is FinishReason.REFUSAL:
        return FailureKind.REFUSAL, errors or ["The agent refused"]
    if outcome.finish_reason is FinishReason.MAX_TURNS:
        return FailureKind.MAX_TURNS, errors or ["The agent hit its turn limit"]
    by_exit = kind_from_exit_code(exit_code)
    if outcome.run_status is RunStatus.UNKNOWN:
        return (
            by_exit or FailureKind.UNKNOWN,
            [*errors, "No terminal event in the agent's output; failing safe"],
        )
    if outcome.run_status is not RunStatus.COMPLETED:
        kind = _RUN_STATUS.get(outcome.run_status.value, FailureKind.UNKNOWN)
        return kind, errors or [f"Agent run {outcome.run_status.value}"]
    if exit_code is None:
        return FailureKind.UNKNOWN, ["No exit code was recorded; failing safe"]
    if exit_code != 0:
        lines = [f"Exit code {exit_code}", *errors, *_block_lines(blocks)]
        return by_exit or FailureKind.UNKNOWN, lines
    if blocks:
        return FailureKind.UNKNOWN, _block_lines(blocks)
    return None


def _block_lines(blocks: list[ErrorBlock]) -> list[str]:
    return [headline(block.text) for block in blocks[:3]]


def _finish(
    result: ParseResult,
    kind: FailureKind,
    operation: str,
    lines: list[str],
    blocks: list[ErrorBlock],
    retry_after_s: float | None,
) -> ParseResult:
    result.success = False
    result.status, result.retry_class = FAILURE_KINDS[kind]
    result.failure_kind = kind
    result.retry_after_s = retry_after_s
    result.errors = list(blocks)
    result.error_message = format_error_message(operation, [line for line in lines if line])
    return result
