"""What one attempt loop produces: the attempt records, the run, and its failure as an error."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Any, Generic, TypeVar

from pydantic import BaseModel

from autofix.errors import ValidationExhaustedError, ValidationRefusedError
from autofix.redact import redact, redact_value
from autofix.result import FieldError, FinishReason, ParseResult, Status, TokenUsage, truncate
from autofix.validation.outcome import ValidationOutcome
from autofix.validation.reply import LLMReply

M = TypeVar("M", bound=BaseModel)


class AttemptMode(StrEnum):
    """What an attempt's prompt holds (feedback.FeedbackMode for the retries)."""

    INITIAL = "initial"  # the original prompt
    FULL = "full"  # original requirements, the last invalid answer and its errors
    RESUMED = "resumed"  # only the errors: the agent's session holds the rest


class DecisionReason(StrEnum):
    """Why the policy decided what it did; a finished run keeps its last one."""

    FIRST_ATTEMPT = "first_attempt"
    VALID = "valid"
    RETRY = "retry"
    REFUSED = "refused"  # refusals are not retried
    NOT_RETRYABLE = "not_retryable"  # the agent call failed; not an output problem
    RETRY_DISABLED = "retry_disabled"
    EXHAUSTED = "exhausted"
    IDENTICAL_ERRORS = "identical_errors"  # two attempts in a row failed the same way
    ESCALATION_FAILED = "escalation_failed"


@dataclass(frozen=True)
class AttemptRecord:
    """One attempt as the audit sees it (passed to ``on_attempt``)."""

    attempt: int
    prompt: str  # the text sent for this attempt (original prompt or feedback)
    mode: AttemptMode
    outcome: ValidationOutcome
    escalated: bool = False
    usage: TokenUsage | None = None
    cost_usd: float | None = None
    session_id: str | None = None
    duration_s: float = 0.0
    reply: LLMReply | None = None  # the callable's answer, as validated

    @property
    def status(self) -> Status:
        return self.outcome.status

    @property
    def ok(self) -> bool:
        return self.outcome.ok

    @property
    def errors(self) -> tuple[FieldError, ...]:
        return self.outcome.errors

    @property
    def repairs(self) -> tuple[str, ...]:
        return self.outcome.repairs

    @property
    def raw_output(self) -> str:
        return self.outcome.raw_output

    @property
    def finish_reason(self) -> FinishReason | None:
        return self.outcome.finish_reason

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready and redacted."""
        data: dict[str, Any] = {
            "attempt": self.attempt,
            "mode": self.mode,
            "escalated": self.escalated,
            "status": self.status.value,
            "errors": [e.model_dump(mode="json") for e in self.errors],
            "repairs": list(self.repairs),
            "warnings": list(self.outcome.warnings),
            "finish_reason": self.finish_reason,
            "prompt_chars": len(self.prompt),
            "output_chars": len(self.raw_output),
            "usage": self.usage.model_dump() if self.usage else None,
            "cost_usd": self.cost_usd,
            "session_id": self.session_id,
            "duration_s": round(self.duration_s, 3),
        }
        cleaned: dict[str, Any] = redact_value(data)
        return cleaned


HistoryItem = ValidationOutcome | AttemptRecord | ParseResult


def outcome_of(item: HistoryItem) -> ValidationOutcome:
    if isinstance(item, AttemptRecord):
        return item.outcome
    if isinstance(item, ParseResult):
        return ValidationOutcome.from_parse_result(item)
    return item


@dataclass(frozen=True)
class ValidationRun(Generic[M]):
    """The result of a loop: the validated instance (or None) and every attempt."""

    value: M | None
    attempts: tuple[AttemptRecord, ...]
    status: Status
    reason: DecisionReason
    report_path: Path | None = None

    @property
    def ok(self) -> bool:
        return self.status is Status.COMPLETED and self.value is not None

    @property
    def calls(self) -> int:
        return len(self.attempts)

    @property
    def last(self) -> AttemptRecord:
        return self.attempts[-1]

    def unwrap(self) -> M:
        if self.value is None:
            raise ValueError(f"validation did not succeed: {self.status.value} ({self.reason})")
        return self.value

    def errors_by_attempt(self) -> dict[int, list[FieldError]]:
        return {record.attempt: list(record.errors) for record in self.attempts}

    def to_parse_result(
        self, base: ParseResult | None = None, *, operation: str | None = None
    ) -> ParseResult:
        """The last attempt's verdict as a ParseResult, with the attempt count."""
        return self.last.outcome.to_parse_result(
            base, operation=operation, attempt=self.last.attempt, attempts=len(self.attempts)
        )


def failure_message(run: ValidationRun[Any], operation: str = "") -> str:
    """A summary line, then one line per attempt naming its failing fields."""
    prefix = f"[{operation}] " if operation else ""
    lines = [
        f"{prefix}no valid output after {len(run.attempts)} call(s): {run.status.value} ({run.reason})"
    ]
    for record in run.attempts:
        if record.ok:
            continue
        fields = (
            ", ".join(f"{e.path} ({e.category.value})" for e in record.errors[:8])
            or record.status.value
        )
        more = f" +{len(record.errors) - 8} more" if len(record.errors) > 8 else ""
        lines.append(f"  call {record.attempt}: {truncate(fields, 400)}{more}")
    if run.report_path is not None:
        lines.append(f"  report: {run.report_path}")
    return redact("\n".join(lines))


def raise_for_run(run: ValidationRun[M], operation: str = "") -> ValidationRun[M]:
    """Return ``run`` when it succeeded, else raise the matching ValidationFailedError."""
    if run.ok:
        return run
    message = failure_message(run, operation)
    # The error reaches the caller, and maybe its log: the agent's last answer goes out redacted.
    last_output = redact(run.last.raw_output) if run.attempts else ""
    if run.status is Status.REFUSED:
        raise ValidationRefusedError(message, run, operation, last_output)
    raise ValidationExhaustedError(message, run, operation, last_output)
