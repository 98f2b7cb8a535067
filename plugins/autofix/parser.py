"""ResponseParser: the one place where success is decided. Fail-safe: when unsure, failure."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

from autofix.agents.base import AgentOutcome
from autofix.agents.failures import agent_error_kind, kind_from_exit_code
from autofix.agents.fatal import FatalLine
from autofix.agents.watch import EarlyStop
from autofix.classify.blocks import headline
from autofix.classify.classifier import Classifier
from autofix.classify.masked_exit import (
    MASKED_EXIT_ROLE,
    MASKED_EXIT_RULE,
    findings,
    masked_exit,
)
from autofix.classify.stream_report import ClassifyReport
from autofix.classify.verdict import weigh
from autofix.notices import AgentNotice, NoticeCode
from autofix.patterns.compiled import CompiledRules
from autofix.patterns.loader import PatternStore, store_for
from autofix.redact import redact
from autofix.result import (
    FAILURE_KINDS,
    ErrorBlock,
    Evidence,
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

    def __init__(self, patterns: str | Path | PatternStore | CompiledRules | None = None) -> None:
        self._current: Callable[[], CompiledRules]
        if isinstance(patterns, CompiledRules):
            fixed = patterns  # one rule set (a trial rulebook, a benchmark), never reloaded
            self._current = lambda: fixed
        else:
            # One store per path: shared hot reload.
            self._store = patterns if isinstance(patterns, PatternStore) else store_for(patterns)
            self._current = self._store.current

    @property
    def rules(self) -> CompiledRules:
        return self._current()

    def classifier(self, operation: str = "", stream: str = "stderr") -> Classifier:
        """A classifier for live feeding; pass its ``finish()`` report to ``parse``."""
        return Classifier(self.rules, operation, stream=stream)

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
        fatal: FatalLine | None = None,
        notices: list[AgentNotice] | None = None,
        structured_result: bool = False,
        agent_errors: bool = False,
        command: str | Sequence[str] | None = None,
    ) -> ParseResult:
        """The verdict. What the runner knows for sure (its timeout, its own early stop or kill,
        a signal) comes first; then the agent's own events; then the exit code and stderr.

        ``structured_result``: the agent is a CLI whose terminal result decides success; its
        stderr then counts only as ``fatal`` (the CLI's own fatal forms, agents/fatal.py), the
        rest is its diagnostics. ``fatal`` also names the kind where the events do not.
        ``agent_errors``: the program is an agent without events (``plain``): an agent API's
        error quoted in its output names the failure's kind.
        ``command``: the command line that ran (a shell string or an argv). Where it hides the
        work's exit status (``|| true``, ``| tail``, ``--exit-zero``), an exit code of 0 proves
        nothing, and a finding in the output's last lines decides failure (masked_exit.py)."""
        event_stream = has_event_stream or agent_outcome is not None
        err = self._report(stderr, operation, "stderr")
        out = None if event_stream else self._report(stdout, operation, "stdout")
        reports = [err] if out is None else [err, out]
        base = _base(exit_code, run_status, operation, reports)
        if agent_outcome is not None:
            _copy_outcome(base, agent_outcome)
        for notice in notices or []:
            if notice not in base.notices:
                base.notices = [*base.notices, notice]
        # Retried blocks don't count; a success summary can outweigh logged ones (verdict.py).
        weighing = weigh(reports)
        blocks = weighing.blocks
        base.evidence = weighing.evidence
        base.stderr_sample = bounded_sample(err.sample())  # assignment skips the validator

        def fail(
            kind: FailureKind, message_lines: list[str], retry_after_s: float | None = None
        ) -> ParseResult:
            no_retry = agent_outcome is not None and agent_outcome.retryable is False
            if no_retry and FAILURE_KINDS[kind][1] in _RETRIED:
                message_lines = [*message_lines[:2], "The API said not to retry this error"]
            result = _finish(base, kind, operation, message_lines, blocks, retry_after_s)
            if no_retry and result.retry_class in _RETRIED:
                # A structured "do not retry" outranks the kind's usual class.
                result.retry_class = RetryClass.PERMANENT
                result.retry_after_s = None
            return result

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
            decided = _decide_agent(
                agent_outcome, exit_code, weighing.deciding, fatal, structured_result
            )
            if decided is not None:
                kind, lines = decided
                return fail(kind, lines, agent_outcome.retry_after_s)
            if structured_result:  # the CLI's result decided: stderr was its diagnostics
                if weighing.deciding:
                    _as_diagnostics(base, weighing.deciding)
                return _succeeded(base)
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
            if kind is FailureKind.UNKNOWN and agent_errors:
                wording = [*_block_lines(blocks), *err.tail[-5:], *(out.tail[-5:] if out else [])]
                kind = agent_error_kind("\n".join(wording)) or kind
            quoted = _block_lines(blocks)[:2]
            if quoted:
                return fail(kind, [*quoted, f"(exit code {exit_code})"])
            tail = list(err.tail[-2:]) or (list(out.tail[-2:]) if out else [])
            return fail(kind, [f"Exit code {exit_code}", *tail])
        if weighing.deciding:
            return fail(FailureKind.UNKNOWN, _block_lines(weighing.deciding))
        masked = masked_exit(command) if agent_outcome is None else None
        found = _findings(reports) if masked else []
        if masked and found:
            base.evidence = [
                Evidence(
                    role=MASKED_EXIT_ROLE,
                    rule_id=MASKED_EXIT_RULE,
                    stream=stream,
                    text=line,
                )
                for stream, line in found[:3]
            ]
            return fail(
                FailureKind.UNKNOWN,
                [f"Exit code 0 proves nothing: {masked}", *(line for _, line in found[:2])],
            )
        if isinstance(stderr, str | bytes) and stderr and log.isEnabledFor(logging.DEBUG):
            raw = stderr if isinstance(stderr, str) else stderr.decode("utf-8", "replace")
            log.debug(
                "autofix: success with stderr (kept for false negatives):\n%s",
                redact(raw[:DEBUG_STDERR_CHARS]),
            )
        return _succeeded(base)


def _findings(reports: list[ClassifyReport]) -> list[tuple[str, str]]:
    """Each stream's findings in its last non-noise lines, with the stream."""
    return [(report.stream, line) for report in reports for line in findings(report.tail)]


def _succeeded(result: ParseResult) -> ParseResult:
    result.success = True
    result.status = Status.COMPLETED
    result.retry_class = RetryClass.NONE
    return result


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
    result.model = outcome.model
    result.cost_usd = outcome.cost_usd
    result.usage = outcome.usage
    result.num_turns = outcome.num_turns
    result.finish_reason = outcome.finish_reason
    result.notices = list(outcome.notices)
    if outcome.notes:  # e.g. unreadable events the reader skipped
        result.warnings = [*result.warnings, *outcome.notes]


def _decide_agent(
    outcome: AgentOutcome,
    exit_code: int | None,
    blocks: list[ErrorBlock],
    fatal: FatalLine | None = None,
    structured_result: bool = False,
) -> tuple[FailureKind, list[str]] | None:
    """A failure verdict from the agent's own events, or None when they say success.

    The decision rule (docs/failure-kinds.md): a structured terminal result decides; stderr is
    failure evidence only in the CLI's own fatal forms (``fatal``) or where there is no terminal
    result; a program without a structured result fails on real error lines at exit 0."""
    errors = [e for e in outcome.errors if e.strip()]
    fatal_lines = [fatal.text] if fatal is not None else []
    fatal_kind = fatal.kind if fatal is not None else FailureKind.UNKNOWN
    if outcome.failure_kind is not None:
        kind = outcome.failure_kind
        if (
            fatal is not None
            and fatal.kind is not FailureKind.UNKNOWN
            and (outcome.terminal_event is None or outcome.text_mode or kind in _VAGUE)
        ):
            # No structured result, or one that does not say why: the CLI's own line does.
            return fatal.kind, [*fatal_lines, *errors]
        return kind, errors or [f"Agent failed: {kind.value}"]
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
        return by_exit or fatal_kind, [
            *fatal_lines,
            *errors,
            "No terminal event in the agent's output; failing safe",
        ]
    if outcome.run_status is not RunStatus.COMPLETED:
        kind = _RUN_STATUS.get(outcome.run_status.value, FailureKind.UNKNOWN)
        if kind in _VAGUE and fatal is not None:
            return fatal.kind, [*fatal_lines, *errors]
        return kind, errors or [f"Agent run {outcome.run_status.value}"]
    if exit_code is None:
        return FailureKind.UNKNOWN, ["No exit code was recorded; failing safe"]
    if exit_code != 0:
        evidence = fatal_lines or _block_lines(blocks)
        return by_exit or fatal_kind, [f"Exit code {exit_code}", *errors, *evidence]
    if fatal is not None and fatal.evidence:
        return fatal.kind, fatal_lines
    if blocks and not structured_result:
        return FailureKind.UNKNOWN, _block_lines(blocks)
    return None


# The failure a notice becomes when the task asks for it (``fail_on``).
NOTICE_FAILURES: dict[NoticeCode, FailureKind] = {
    NoticeCode.DENIED_TOOL: FailureKind.PERMISSION,
    NoticeCode.MCP_SERVER_FAILED: FailureKind.CONFIG,
    NoticeCode.LOOP_DETECTED: FailureKind.LOOP_DETECTED,
    NoticeCode.COMPACTED: FailureKind.CONTEXT_WINDOW,
}


_RETRIED = frozenset({RetryClass.TRANSIENT, RetryClass.ERROR})
# Kinds that say only that something failed: a fatal line of the CLI's may say what.
_VAGUE = frozenset({FailureKind.UNKNOWN, FailureKind.API_ERROR})


def _as_diagnostics(result: ParseResult, blocks: list[ErrorBlock]) -> None:
    """Error lines on stderr beside a structured success: the CLI's own diagnostics. Counted and
    shown, never the verdict."""
    lines = sum(block.text.count("\n") + 1 for block in blocks)
    result.diagnostic_lines = lines
    result.warnings = [
        *result.warnings,
        f"{lines} error line(s) on stderr were the agent CLI's own diagnostics, not counted: "
        "its structured result decided",
    ]
    result.evidence = [
        Evidence(
            role="CLI diagnostic (not counted)",
            rule_id=block.rule_id,
            stream=block.source.value,
            line_no=block.line_no,
            text=block.text,
        )
        for block in blocks[:3]
    ]


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


def check_fail_on(codes: Iterable[str] | str | None) -> tuple[NoticeCode, ...]:
    """``fail_on`` names checked: ValueError naming the valid ones for anything else."""
    if codes is None:
        return ()
    names = [codes] if isinstance(codes, str) else list(codes)
    try:
        return tuple(NoticeCode(name) for name in names)
    except ValueError:
        valid = ", ".join(code.value for code in NoticeCode)
        raise ValueError(f"fail_on: {codes!r} names an unknown notice; valid: {valid}") from None


def apply_fail_on(result: ParseResult, fail_on: tuple[NoticeCode, ...]) -> ParseResult:
    """A success whose CLI reported one of ``fail_on`` (a denied tool, a failed MCP server, a
    loop, a compaction) as the failure that notice stands for (``NOTICE_FAILURES``)."""
    if not result.success or not fail_on:
        return result
    for notice in result.notices:
        if notice.code in fail_on:
            failed = result.model_copy()
            line = f"The agent CLI reported {notice.describe()} (fail_on)"
            return _finish(failed, NOTICE_FAILURES[notice.code], result.operation, [line], [], None)
    return result


def empty_answer(result: ParseResult, agent: str) -> ParseResult:
    """A success without any answer text, as the failure it is (a format without events)."""
    if not result.success or (result.final_text or "").strip():
        return result
    line = f"{agent}: the command exited 0 without any answer on stdout"
    return _finish(
        result.model_copy(), FailureKind.EMPTY_ANSWER, result.operation, [line], [], None
    )
