"""The attempt policy and the loop that applies it.

The policy is plain data plus two pure functions, so the in-task loop (AttemptLoop) and
a multi-task Grid version (one attempt per task, history rebuilt from XCom ParseResults)
make the same decisions:

    decision = policy.decide(history)          # accept / retry / escalate / stop
    prompt = policy.feedback(history, ...)      # the prompt for attempt len(history) + 1
"""

from __future__ import annotations

import importlib
import json
import logging
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from enum import StrEnum
from pathlib import Path
from typing import Any, Generic, Literal, TypeVar

from pydantic import BaseModel

from autofix.config import EscalationSettings, ValidationSettings, load_config, resolve
from autofix.errors import ConfigError, ValidationExhaustedError, ValidationRefusedError
from autofix.redact import redact, redact_value
from autofix.result import FieldError, ParseResult, Status, TokenUsage, truncate
from autofix.validation.feedback import (
    DEFAULT_MAX_ERRORS,
    DEFAULT_MAX_OUTPUT_CHARS,
    FeedbackMode,
    build_feedback,
)
from autofix.validation.reply import LLMReply, coerce_reply
from autofix.validation.strategies import (
    ADAPTIVE,
    AUTO,
    CONSTRAINED,
    FEEDBACK,
    HISTORY,
    HYBRID,
    RESAMPLE,
    RESAMPLING,
    AdaptiveAdvisor,
    FeedbackStyle,
    arm,
    arm_parts,
    check_strategy,
    completion_feedback,
    completion_history_turn,
    completion_hybrid,
    primary_category,
    resolve_auto,
)
from autofix.validation.validator import OutputValidator, ValidationOutcome

log = logging.getLogger("autofix.validation")

M = TypeVar("M", bound=BaseModel)
AttemptMode = Literal["initial", "full", "resumed"]
ResumeMode = Literal["never", "with_session_id", "always"]
DEFAULT_REPORT_DIR = "logs/autofix/reports"
REPORT_OUTPUT_CHARS = 4000


# ---------------------------------------------------------------------------- records


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
    def finish_reason(self) -> str | None:
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


def _outcome(item: HistoryItem) -> ValidationOutcome:
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
    reason: str
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


# ---------------------------------------------------------------------------- errors


def failure_message(run: ValidationRun[Any], operation: str = "") -> str:
    """A summary line, then one line per attempt naming its failing fields."""
    prefix = f"[{operation}] " if operation else ""
    lines = [
        f"{prefix}no valid output after {len(run.attempts)} attempt(s): {run.status.value} ({run.reason})"
    ]
    for record in run.attempts:
        if record.ok:
            continue
        fields = (
            ", ".join(f"{e.path} ({e.category.value})" for e in record.errors[:8])
            or record.status.value
        )
        more = f" +{len(record.errors) - 8} more" if len(record.errors) > 8 else ""
        lines.append(f"  attempt {record.attempt}: {truncate(fields, 400)}{more}")
    if run.report_path is not None:
        lines.append(f"  report: {run.report_path}")
    return redact("\n".join(lines))


def raise_for_run(run: ValidationRun[M], operation: str = "") -> ValidationRun[M]:
    """Return ``run`` when it succeeded, else raise the matching ValidationFailedError."""
    if run.ok:
        return run
    message = failure_message(run, operation)
    if run.status is Status.REFUSED:
        raise ValidationRefusedError(message, run, operation)
    raise ValidationExhaustedError(message, run, operation)


# ---------------------------------------------------------------------------- escalation


ContextCallable = Callable[[Sequence[AttemptRecord]], str | None]


@dataclass(frozen=True)
class Escalation:
    """One extra attempt, on identical errors, before giving up.

    ``llm``: another callable to use (plain Python). ``agent``/``model``: names an operator
    acts on; ``generate_and_validate`` passes ``model=`` to an llm that accepts it.
    ``context_file``/``context_callable``: extra context added to the feedback; the
    callable (or its ``"pkg.mod:func"`` path) gets the attempt history and returns text.
    """

    llm: Callable[..., object] | None = None
    agent: str | None = None
    model: str | None = None
    context_file: str | Path | None = None
    context_callable: ContextCallable | str | None = None

    @classmethod
    def from_settings(cls, settings: EscalationSettings) -> Escalation:
        """Build from config, failing fast on a bad callable path or a missing file."""
        if settings.context_callable:
            _import_callable(settings.context_callable, "validation.escalation.context_callable")
        if settings.context_file and not resolve(settings.context_file).is_file():
            raise ConfigError(
                f"validation.escalation.context_file: file not found: {resolve(settings.context_file)}"
            )
        return cls(
            agent=settings.agent,
            model=settings.model,
            context_file=settings.context_file,
            context_callable=settings.context_callable,
        )

    @property
    def switches_agent(self) -> bool:
        return self.llm is not None or self.agent is not None or self.model is not None

    def context(self, history: Sequence[AttemptRecord]) -> str | None:
        """The extra context text (file first, then callable), redacted."""
        parts: list[str] = []
        if self.context_file:
            parts.append(resolve(self.context_file).read_text(encoding="utf-8"))
        if self.context_callable is not None:
            func = (
                _import_callable(self.context_callable, "escalation.context_callable")
                if isinstance(self.context_callable, str)
                else self.context_callable
            )
            extra = func(history)
            if extra:
                parts.append(str(extra))
        return redact("\n\n".join(p.strip() for p in parts)) if parts else None


def _import_callable(path: str, key: str) -> ContextCallable:
    module_name, sep, attr = path.partition(":")
    if not sep or not module_name or not attr:
        raise ConfigError(f"{key}: {path!r} must look like 'package.module:function'")
    try:
        target: Any = importlib.import_module(module_name)
        for part in attr.split("."):
            target = getattr(target, part)
    except (ImportError, AttributeError) as exc:
        raise ConfigError(f"{key}: cannot import {path!r}: {exc}") from exc
    if not callable(target):
        raise ConfigError(f"{key}: {path!r} is not callable")
    return target  # type: ignore[no-any-return]


# ---------------------------------------------------------------------------- policy


class Action(StrEnum):
    ACCEPT = "accept"
    RETRY = "retry"
    ESCALATE = "escalate"
    STOP = "stop"


@dataclass(frozen=True)
class Decision:
    """What to do after the last attempt. ``status`` is final for accept/stop."""

    action: Action
    reason: str  # first_attempt | valid | retry | refused | not_retryable | retry_disabled | exhausted | identical_errors | escalation_failed
    status: Status
    next_attempt: int | None = None
    repeated: bool = False  # the last two attempts failed with the same (path, category) set
    message: str = ""

    @property
    def done(self) -> bool:
        return self.action in (Action.ACCEPT, Action.STOP)


@dataclass(frozen=True)
class AttemptPolicy:
    """When to retry, when to stop, when to escalate. Build with ``from_settings``/``from_config``."""

    max_attempts: int = 3
    retry_enabled: bool = True
    retry_delay_seconds: float = 0.0
    abort_on_identical_errors: bool = True
    max_errors_shown: int = DEFAULT_MAX_ERRORS
    max_output_chars: int = DEFAULT_MAX_OUTPUT_CHARS
    escalation: Escalation | None = None
    report_dir: str | Path | None = None
    # Retry strategy (autofix.validation.strategies). "auto" until ``resolved`` for an agent;
    # unresolved it retries as "feedback", the behaviour above.
    strategy: str = AUTO
    constrained: bool = False  # the schema goes to the endpoint (adaptive: on attempt 1)
    schema_optional: bool = False  # set by "auto": an endpoint that rejects the schema gets none
    feedback_style: FeedbackStyle = "instructions"  # "completion" for base models
    advisor: AdaptiveAdvisor | None = None  # the adaptive strategy's rates; None = default table

    def __post_init__(self) -> None:
        check_strategy(self.strategy)
        if self.max_attempts < 1:
            raise ValueError(f"max_attempts must be >= 1, got {self.max_attempts}")
        if self.retry_delay_seconds < 0:
            raise ValueError(f"retry_delay_seconds must be >= 0, got {self.retry_delay_seconds}")
        if self.max_errors_shown < 1:
            raise ValueError(f"max_errors_shown must be >= 1, got {self.max_errors_shown}")

    @classmethod
    def from_settings(cls, settings: ValidationSettings, **overrides: Any) -> AttemptPolicy:
        """From the ``validation:`` config section; keyword overrides that are None are ignored."""
        escalation = Escalation.from_settings(settings.escalation) if settings.escalation else None
        policy = cls(
            max_attempts=settings.max_attempts,
            retry_enabled=settings.retry_enabled,
            retry_delay_seconds=settings.retry_delay_seconds,
            abort_on_identical_errors=settings.abort_on_identical_errors,
            max_errors_shown=settings.max_errors_shown,
            max_output_chars=settings.max_output_chars,
            escalation=escalation,
            report_dir=settings.report_dir,
            strategy=settings.strategy,
            constrained=settings.constrained,
        )
        given = {key: value for key, value in overrides.items() if value is not None}
        return replace(policy, **given) if given else policy

    @classmethod
    def from_config(
        cls, path: str | Path | None = None, environ: dict[str, str] | None = None, **overrides: Any
    ) -> AttemptPolicy:
        """config/autofix.yaml + ``AUTOFIX__VALIDATION__*`` env; raises ConfigError naming key and reason."""
        return cls.from_settings(load_config(path, environ).validation, **overrides)

    @property
    def allowed_attempts(self) -> int:
        return self.max_attempts if self.retry_enabled else 1

    def decide(
        self, history: Sequence[HistoryItem], *, escalation_used: bool | None = None
    ) -> Decision:
        """The next step given every attempt so far (oldest first).

        ``escalation_used``: whether the escalation attempt already ran; inferred from
        AttemptRecords, pass it when the history is ParseResults.
        """
        if not history:
            return Decision(Action.RETRY, "first_attempt", Status.INVALID_OUTPUT, next_attempt=1)
        outcomes = [_outcome(item) for item in history]
        last = outcomes[-1]
        count = len(outcomes)
        if escalation_used is None:
            escalation_used = any(isinstance(i, AttemptRecord) and i.escalated for i in history)
        if last.ok:
            return Decision(
                Action.ACCEPT, "valid", Status.COMPLETED, message=f"attempt {count} is valid"
            )
        if last.status is Status.REFUSED:
            return Decision(
                Action.STOP, "refused", Status.REFUSED, message="the agent refused; not retried"
            )
        if last.status not in (Status.INVALID_OUTPUT, Status.TRUNCATED):
            return Decision(
                Action.STOP,
                "not_retryable",
                last.status,
                message=f"{last.status.value} is not an output problem",
            )
        previous = outcomes[-2] if count >= 2 else None
        repeated = (
            previous is not None
            and not previous.ok
            and bool(last.error_keys)
            and last.error_keys == previous.error_keys
        )
        if escalation_used:
            return Decision(
                Action.STOP,
                "escalation_failed",
                last.status,
                repeated=repeated,
                message=f"the escalation attempt {count} failed too",
            )
        # A resampling strategy draws afresh, so the same errors twice do not mean it is stuck.
        if (
            repeated
            and self.abort_on_identical_errors
            and self.strategy in (FEEDBACK, HISTORY, AUTO)
        ):
            same = ", ".join(sorted(f"{p} ({c})" for p, c in last.error_keys))
            if self.escalation is not None and self.retry_enabled:
                return Decision(
                    Action.ESCALATE,
                    "identical_errors",
                    last.status,
                    next_attempt=count + 1,
                    repeated=True,
                    message=f"attempts {count - 1} and {count} failed with the same errors ({same}); escalating",
                )
            return Decision(
                Action.STOP,
                "identical_errors",
                last.status,
                repeated=True,
                message=f"attempts {count - 1} and {count} failed with the same errors ({same}); stopping",
            )
        if count >= self.allowed_attempts:
            reason = "retry_disabled" if not self.retry_enabled else "exhausted"
            return Decision(
                Action.STOP,
                reason,
                last.status,
                repeated=repeated,
                message=f"{count} of {self.allowed_attempts} attempt(s) used",
            )
        return Decision(
            Action.RETRY, "retry", last.status, next_attempt=count + 1, repeated=repeated
        )

    def feedback(
        self,
        history: Sequence[HistoryItem],
        *,
        original_prompt: str,
        mode: FeedbackMode = "full",
        model: type[BaseModel] | None = None,
        payload_format: str = "JSON",
        extra_context: str | None = None,
        decision: Decision | None = None,
    ) -> str:
        """The prompt for attempt ``len(history) + 1`` after the last (failed) attempt."""
        if not history:
            return original_prompt
        decision = decision or self.decide(history)
        attempt = len(history) + 1
        return build_feedback(
            _outcome(history[-1]),
            original_prompt=original_prompt,
            attempt=attempt,
            max_attempts=max(self.allowed_attempts, attempt),
            mode=mode,
            model=model,
            max_errors_shown=self.max_errors_shown,
            max_output_chars=self.max_output_chars,
            repeated=decision.repeated,
            extra_context=extra_context,
            payload_format=payload_format,
        )

    def resolved(self, samples: bool) -> AttemptPolicy:
        """``auto`` made concrete for an agent; ``samples``: it takes a seed and a schema."""
        if self.strategy != AUTO:
            return self
        strategy, constrained = resolve_auto(samples)
        return replace(
            self, strategy=strategy, constrained=constrained, schema_optional=constrained
        )

    def choose_retry(self, last: HistoryItem) -> tuple[str, bool, str]:
        """(the strategy for the next attempt, whether it sends the schema, the category it
        retries). Unresolved ``auto`` retries as ``feedback``."""
        category = primary_category(_outcome(last))
        if self.strategy != ADAPTIVE:
            strategy = FEEDBACK if self.strategy == AUTO else self.strategy
            return strategy, self.sends_schema(strategy), category
        advisor = self.advisor or AdaptiveAdvisor()
        if self.constrained:
            advisor = advisor.for_schema()
        strategy, schema = arm_parts(advisor.choose(category))
        return strategy, schema, category

    def sends_schema(self, strategy: str) -> bool:
        return self.constrained or strategy == CONSTRAINED

    def first_request(self, prompt: str) -> AttemptRequest:
        return AttemptRequest(
            1,
            self.allowed_attempts,
            prompt,
            prompt,
            "initial",
            strategy=self.strategy,
            constrained=self.sends_schema(self.strategy),
        )

    def next_request(
        self,
        prompt: str,
        history: Sequence[HistoryItem],
        decision: Decision,
        *,
        resume: ResumeMode = "never",
        model: type[BaseModel] | None = None,
        payload_format: str = "JSON",
    ) -> AttemptRequest:
        """What attempt ``len(history) + 1`` sends after a failed one: the strategy's prompt (or
        messages), seed offset and schema flag; the escalation context on an ESCALATE decision.
        Both retry paths use it (the in-task loop and the ``retry_with_feedback`` group)."""
        escalation = self.escalation if decision.action is Action.ESCALATE else None
        records = [item for item in history if isinstance(item, AttemptRecord)]
        extra = escalation.context(records) if escalation is not None else None
        session_id = getattr(history[-1], "session_id", None)
        switching = escalation is not None and escalation.switches_agent
        resumed = not switching and (
            resume == "always" or (resume == "with_session_id" and session_id is not None)
        )
        mode: FeedbackMode = "resumed" if resumed else "full"
        attempt = len(history) + 1
        strategy, schema, category = self.choose_retry(history[-1])
        messages: list[dict[str, str]] | None = None
        if escalation is not None or (
            strategy == FEEDBACK and self.feedback_style == "instructions"
        ):
            text = self.feedback(
                history,
                original_prompt=prompt,
                mode=mode,
                model=model,
                payload_format=payload_format,
                extra_context=extra,
                decision=decision,
            )
        else:
            # Other strategies start a fresh call: the prompt (or messages) carries everything.
            mode, resumed = "full", False
            text, messages = self.strategy_prompt(
                strategy,
                history,
                original_prompt=prompt,
                model=model,
                payload_format=payload_format,
                decision=decision,
            )
        return AttemptRequest(
            attempt=attempt,
            max_attempts=max(self.allowed_attempts, attempt),
            prompt=text,
            original_prompt=prompt,
            mode=mode,
            resume_session_id=session_id if resumed else None,
            escalation=escalation,
            strategy=strategy,
            seed_offset=attempt - 1 if strategy in RESAMPLING else 0,
            messages=tuple(messages) if messages is not None else None,
            constrained=schema,
            retry_for=category,
        )

    def strategy_prompt(
        self,
        strategy: str,
        history: Sequence[HistoryItem],
        *,
        original_prompt: str,
        model: type[BaseModel] | None = None,
        payload_format: str = "JSON",
        decision: Decision | None = None,
    ) -> tuple[str, list[dict[str, str]] | None]:
        """(prompt text, chat messages or None) for a strategy other than instruction feedback."""
        outcomes = [_outcome(item) for item in history]
        last = outcomes[-1]
        completion = self.feedback_style == "completion"
        if strategy in (RESAMPLE, CONSTRAINED):
            return original_prompt, None
        if strategy == FEEDBACK:  # completion style only; instructions go through feedback()
            return completion_feedback(original_prompt, last), None
        if strategy == HYBRID:
            if completion:
                return completion_hybrid(original_prompt, last), None
            return self.feedback(
                history,
                original_prompt=original_prompt,
                model=model,
                payload_format=payload_format,
                decision=decision,
            ), None
        # history: every earlier answer and the errors that followed it.
        turns: list[str] = []
        for index, outcome in enumerate(outcomes):
            if completion:
                turns.append(completion_history_turn(original_prompt, outcome))
            else:
                turns.append(
                    build_feedback(
                        outcome,
                        original_prompt=original_prompt,
                        attempt=index + 2,
                        max_attempts=max(self.allowed_attempts, index + 2),
                        mode="resumed",
                        model=model,
                        max_errors_shown=self.max_errors_shown,
                        max_output_chars=self.max_output_chars,
                        payload_format=payload_format,
                    )
                )
        messages = [{"role": "user", "content": original_prompt}]
        for outcome, turn in zip(outcomes, turns, strict=True):
            messages += [
                {"role": "assistant", "content": outcome.raw_output},
                {"role": "user", "content": turn},
            ]
        return turns[-1], messages


# ---------------------------------------------------------------------------- report


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", text)[:80] or "run"


def write_failure_report(
    directory: str | Path | None,
    *,
    run: str,
    operation: str,
    original_prompt: str,
    attempts: Sequence[HistoryItem],
    final_status: Status | str,
    reason: str = "",
) -> Path:
    """Write ``{run, operation, original_prompt, attempts: [{attempt, errors}], final_status}``
    (plus reason and the last output, all redacted) to ``directory``; return the file path."""
    target_dir = resolve(directory or DEFAULT_REPORT_DIR)
    target_dir.mkdir(parents=True, exist_ok=True)
    entries: list[dict[str, Any]] = []
    for index, item in enumerate(attempts, 1):
        outcome = _outcome(item)
        entry: dict[str, Any] = {
            "attempt": item.attempt if isinstance(item, AttemptRecord | ParseResult) else index,
            "status": outcome.status.value,
            "errors": [e.model_dump(mode="json") for e in outcome.errors],
            "repairs": list(outcome.repairs),
            "finish_reason": outcome.finish_reason,
        }
        if isinstance(item, AttemptRecord):
            entry.update(mode=item.mode, escalated=item.escalated)
        entries.append(entry)
    last_output = _outcome(attempts[-1]).raw_output if attempts else ""
    report = {
        "run": run,
        "operation": operation,
        "original_prompt": original_prompt,
        "attempts": entries,
        "final_status": str(getattr(final_status, "value", final_status)),
        "reason": reason,
        "last_output": truncate(last_output, REPORT_OUTPUT_CHARS),
        "written_at": datetime.now(UTC).isoformat(),
    }
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S%f")
    path = target_dir / f"{_slug(operation or 'validation')}-{_slug(run)}-{stamp}.json"
    path.write_text(
        json.dumps(redact_value(report), indent=2, ensure_ascii=False), encoding="utf-8"
    )
    return path


# ---------------------------------------------------------------------------- the loop


@dataclass(frozen=True)
class AttemptRequest:
    """What the agent callable is asked to do for one attempt."""

    attempt: int
    max_attempts: int
    prompt: str  # the text to send now
    original_prompt: str
    mode: AttemptMode
    resume_session_id: str | None = None  # set in "resumed" mode when the last reply gave one
    escalation: Escalation | None = None  # set on the escalation attempt
    # Set by the retry strategy (autofix.validation.strategies); defaults mean plain feedback.
    strategy: str = FEEDBACK
    seed_offset: int = 0  # add to the configured seed: a resampling strategy's fresh draw
    messages: tuple[dict[str, str], ...] | None = None  # the whole conversation (history)
    constrained: bool = False  # send the output schema as response_format
    retry_for: str | None = None  # the error category this retry addresses (audit, adaptive)

    @property
    def escalated(self) -> bool:
        return self.escalation is not None


AgentCall = Callable[[AttemptRequest], object]
OnAttempt = Callable[[AttemptRecord], None]


@dataclass
class AttemptLoop:
    """Runs attempts until the policy says stop. Never raises for invalid output.

    ``call`` gets an AttemptRequest and returns the reply (str, LLMReply, AgentOutcome,
    ...). Exceptions from ``call`` propagate: transient agent errors belong to the
    caller's own retry mechanism (Airflow ``retries``). ``resume``: "never" (fresh
    calls, full feedback), "with_session_id" (resume when the last reply gave a session
    id, as CLIs do) or "always" (the callable keeps the conversation itself).
    """

    validator: OutputValidator
    policy: AttemptPolicy = field(default_factory=AttemptPolicy)
    operation: str = ""
    run_id: str | None = None
    resume: ResumeMode = "never"
    on_attempt: OnAttempt | None = None
    sleep: Callable[[float], None] = time.sleep
    write_report: bool = True

    def run(self, prompt: str, call: AgentCall) -> ValidationRun[BaseModel]:
        run_id = self.run_id or datetime.now(UTC).strftime("%Y%m%dT%H%M%S")
        history: list[AttemptRecord] = []
        request = self.policy.first_request(prompt)
        label = f"[{self.operation}] " if self.operation else ""
        while True:
            started = time.monotonic()
            reply = coerce_reply(call(request))
            outcome = self._validate(reply)
            record = AttemptRecord(
                attempt=request.attempt,
                prompt=request.prompt,
                mode=request.mode,
                outcome=outcome,
                escalated=request.escalated,
                usage=reply.usage,
                cost_usd=reply.cost_usd,
                session_id=reply.session_id,
                duration_s=time.monotonic() - started,
            )
            history.append(record)
            log.info(
                "%sattempt %d/%d (%s%s): %s%s",
                label,
                record.attempt,
                request.max_attempts,
                record.mode,
                ", escalated" if record.escalated else "",
                outcome.summary(),
                f"; repairs: {', '.join(outcome.repairs)}" if outcome.repairs else "",
            )
            for warning in outcome.warnings:
                log.warning("%sattempt %d: %s", label, record.attempt, warning)
            if self.on_attempt is not None:
                self.on_attempt(record)
            decision = self.policy.decide(history)
            if decision.action is Action.ACCEPT:
                return ValidationRun(outcome.value, tuple(history), Status.COMPLETED, "valid")
            if decision.action is Action.STOP:
                return self._stop(prompt, history, decision, run_id, label)
            request = self._next_request(prompt, history, decision, label)
            if self.policy.retry_delay_seconds > 0:
                self.sleep(self.policy.retry_delay_seconds)

    def _validate(self, reply: LLMReply) -> ValidationOutcome:
        if reply.structured_output is not None:
            return self.validator.validate(
                reply.text, reply.finish_reason, data=reply.structured_output
            )
        return self.validator.validate(reply.text, reply.finish_reason)

    def _next_request(
        self, prompt: str, history: list[AttemptRecord], decision: Decision, label: str
    ) -> AttemptRequest:
        if decision.action is Action.ESCALATE and self.policy.escalation is not None:
            log.warning("%s%s", label, decision.message)
        request = self.policy.next_request(
            prompt,
            history,
            decision,
            resume=self.resume,
            model=self.validator.model,
            payload_format="YAML" if self.validator.payload_format == "yaml" else "JSON",
        )
        if self.policy.strategy not in (FEEDBACK, AUTO):
            log.info(
                "%sattempt %d: strategy %s for %s",
                label,
                request.attempt,
                arm(request.strategy, request.constrained),
                request.retry_for,
            )
        return request

    def _stop(
        self, prompt: str, history: list[AttemptRecord], decision: Decision, run_id: str, label: str
    ) -> ValidationRun[BaseModel]:
        if decision.reason == "identical_errors":
            log.warning("%s%s (abort_on_identical_errors)", label, decision.message)
        else:
            log.warning("%sgiving up: %s: %s", label, decision.reason, decision.message)
        report: Path | None = None
        if self.write_report:
            try:
                report = write_failure_report(
                    self.policy.report_dir,
                    run=run_id,
                    operation=self.operation,
                    original_prompt=prompt,
                    attempts=history,
                    final_status=decision.status,
                    reason=decision.reason,
                )
                log.info("%sfailure report: %s", label, report)
            except OSError as exc:  # the report must never hide the validation failure itself
                log.warning("%scould not write the failure report: %s", label, exc)
        return ValidationRun(None, tuple(history), decision.status, decision.reason, report)
