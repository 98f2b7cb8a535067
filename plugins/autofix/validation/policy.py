"""The attempt policy: after each attempt, what to do next and what the next attempt sends."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from autofix.config import ValidationSettings, load_config
from autofix.result import RetryStrategy, Status
from autofix.validation.adaptive import AdaptiveAdvisor
from autofix.validation.completion import (
    completion_feedback,
    completion_history_turn,
    completion_hybrid,
)
from autofix.validation.decoding import DecodingSchemas
from autofix.validation.escalation import Escalation
from autofix.validation.feedback import (
    DEFAULT_MAX_ERRORS,
    DEFAULT_MAX_OUTPUT_CHARS,
    FeedbackMode,
    build_feedback,
)
from autofix.validation.records import (
    AttemptMode,
    AttemptRecord,
    DecisionReason,
    HistoryItem,
    outcome_of,
)
from autofix.validation.strategies import (
    RESAMPLING,
    SCHEMA_STRATEGIES,
    FeedbackStyle,
    arm_parts,
    check_strategy,
    history_messages,
    primary_category,
    resolve_auto,
)

# A resampling strategy draws afresh, so the same errors twice do not mean it is stuck.
_STUCK_WHEN_REPEATED = frozenset(
    {RetryStrategy.FEEDBACK, RetryStrategy.HISTORY, RetryStrategy.AUTO}
)


class ResumeMode(StrEnum):
    """When a retry continues the agent's session instead of starting afresh."""

    NEVER = "never"  # fresh calls with full feedback
    WITH_SESSION_ID = "with_session_id"  # when the last reply gave a session id, as CLIs do
    ALWAYS = "always"  # the callable keeps the conversation itself


class Action(StrEnum):
    ACCEPT = "accept"
    RETRY = "retry"
    ESCALATE = "escalate"
    STOP = "stop"


@dataclass(frozen=True)
class Decision:
    """What to do after the last attempt. ``status`` is final for accept/stop."""

    action: Action
    reason: DecisionReason
    status: Status
    next_attempt: int | None = None
    repeated: bool = False  # the last two attempts failed with the same (path, category) set
    message: str = ""

    @property
    def done(self) -> bool:
        return self.action in (Action.ACCEPT, Action.STOP)


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
    strategy: RetryStrategy = RetryStrategy.FEEDBACK
    seed_offset: int = 0  # add to the configured seed: a resampling strategy's fresh draw
    messages: tuple[dict[str, str], ...] | None = None  # the whole conversation (history)
    constrained: bool = False  # send the output schema as response_format
    retry_for: str | None = None  # the error category this retry addresses (audit, adaptive)
    # What a constrained attempt decodes with when it is not the output schema as is: its
    # cross-field rules folded in, or a targeted re-decode (validation/decoding.py).
    schema: Mapping[str, Any] | None = None

    @property
    def escalated(self) -> bool:
        return self.escalation is not None


@dataclass(frozen=True)
class AttemptPolicy:
    """When to retry, when to stop, when to escalate. Build with ``from_settings``/``from_config``.

    Plain data plus pure functions, so the in-task loop (AttemptLoop) and a multi-task Grid version
    (one attempt per task, history rebuilt from XCom ParseResults) make the same decisions:

        decision = policy.decide(history)          # accept / retry / escalate / stop
        prompt = policy.feedback(history, ...)      # the prompt for attempt len(history) + 1
    """

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
    strategy: RetryStrategy = RetryStrategy.AUTO
    constrained: bool = False  # the schema goes to the endpoint (adaptive: on attempt 1)
    schema_optional: bool = False  # set by "auto": an endpoint that rejects the schema gets none
    feedback_style: FeedbackStyle = FeedbackStyle.INSTRUCTIONS  # COMPLETION for base models
    advisor: AdaptiveAdvisor | None = None  # the adaptive strategy's rates; None = default table

    def __post_init__(self) -> None:
        # Callers and the config may pass the plain string; keep the enum from here on.
        object.__setattr__(self, "strategy", check_strategy(self.strategy))
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
            strategy=RetryStrategy(settings.strategy),
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
            return Decision(
                Action.RETRY, DecisionReason.FIRST_ATTEMPT, Status.INVALID_OUTPUT, next_attempt=1
            )
        outcomes = [outcome_of(item) for item in history]
        last = outcomes[-1]
        count = len(outcomes)
        if escalation_used is None:
            escalation_used = any(isinstance(i, AttemptRecord) and i.escalated for i in history)
        if last.ok:
            return Decision(
                Action.ACCEPT,
                DecisionReason.VALID,
                Status.COMPLETED,
                message=f"call {count} is valid",
            )
        if last.status is Status.REFUSED:
            return Decision(
                Action.STOP,
                DecisionReason.REFUSED,
                Status.REFUSED,
                message="the agent refused; not retried",
            )
        if last.status not in (Status.INVALID_OUTPUT, Status.TRUNCATED):
            return Decision(
                Action.STOP,
                DecisionReason.NOT_RETRYABLE,
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
                DecisionReason.ESCALATION_FAILED,
                last.status,
                repeated=repeated,
                message=f"the escalation call {count} failed too",
            )
        if repeated and self.abort_on_identical_errors and self.strategy in _STUCK_WHEN_REPEATED:
            same = ", ".join(sorted(f"{p} ({c})" for p, c in last.error_keys))
            escalate = self.escalation is not None and self.retry_enabled
            return Decision(
                Action.ESCALATE if escalate else Action.STOP,
                DecisionReason.IDENTICAL_ERRORS,
                last.status,
                next_attempt=count + 1 if escalate else None,
                repeated=True,
                message=f"calls {count - 1} and {count} failed with the same errors ({same}); "
                + ("escalating" if escalate else "stopping"),
            )
        if count >= self.allowed_attempts:
            reason = (
                DecisionReason.RETRY_DISABLED
                if not self.retry_enabled
                else DecisionReason.EXHAUSTED
            )
            return Decision(
                Action.STOP,
                reason,
                last.status,
                repeated=repeated,
                message=f"{count} of {self.allowed_attempts} call(s) used",
            )
        return Decision(
            Action.RETRY,
            DecisionReason.RETRY,
            last.status,
            next_attempt=count + 1,
            repeated=repeated,
        )

    def feedback(
        self,
        history: Sequence[HistoryItem],
        *,
        original_prompt: str,
        mode: FeedbackMode = FeedbackMode.FULL,
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
            outcome_of(history[-1]),
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
        if self.strategy != RetryStrategy.AUTO:
            return self
        strategy, constrained = resolve_auto(samples)
        return replace(
            self, strategy=strategy, constrained=constrained, schema_optional=constrained
        )

    def choose_retry(self, last: HistoryItem) -> tuple[RetryStrategy, bool, str]:
        """(the strategy for the next attempt, whether it sends the schema, the category it
        retries). Unresolved ``auto`` retries as ``feedback``."""
        category = primary_category(outcome_of(last))
        if self.strategy != RetryStrategy.ADAPTIVE:
            strategy: RetryStrategy = (
                RetryStrategy.FEEDBACK if self.strategy == RetryStrategy.AUTO else self.strategy
            )
            return strategy, self.sends_schema(strategy), category
        advisor = self.advisor or AdaptiveAdvisor()
        if self.constrained:
            advisor = advisor.for_schema()
        strategy, schema = arm_parts(advisor.choose(category))
        return strategy, schema, category

    def sends_schema(self, strategy: RetryStrategy) -> bool:
        return self.constrained or strategy in SCHEMA_STRATEGIES

    def first_request(self, prompt: str, decoding: DecodingSchemas | None = None) -> AttemptRequest:
        constrained = self.sends_schema(self.strategy)
        return AttemptRequest(
            1,
            self.allowed_attempts,
            prompt,
            prompt,
            AttemptMode.INITIAL,
            strategy=self.strategy,
            constrained=constrained,
            schema=decoding.full if constrained and decoding is not None else None,
        )

    @staticmethod
    def _decoding_schema(
        strategy: RetryStrategy, last: HistoryItem, decoding: DecodingSchemas | None
    ) -> tuple[RetryStrategy, Mapping[str, Any] | None]:
        """(strategy, schema) for a constrained retry: ``targeted`` with nothing to keep (no
        object parsed, every field failing) is a constrained resample."""
        if decoding is None:
            return (
                RetryStrategy.CONSTRAINED if strategy == RetryStrategy.TARGETED else strategy
            ), None
        if strategy == RetryStrategy.TARGETED:
            targeted = decoding.targeted(outcome_of(last))
            if targeted is not None:
                return strategy, targeted
            strategy = RetryStrategy.CONSTRAINED
        return strategy, decoding.full

    def next_request(
        self,
        prompt: str,
        history: Sequence[HistoryItem],
        decision: Decision,
        *,
        resume: ResumeMode = ResumeMode.NEVER,
        model: type[BaseModel] | None = None,
        payload_format: str = "JSON",
        decoding: DecodingSchemas | None = None,
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
            resume == ResumeMode.ALWAYS
            or (resume == ResumeMode.WITH_SESSION_ID and session_id is not None)
        )
        mode = FeedbackMode.RESUMED if resumed else FeedbackMode.FULL
        attempt = len(history) + 1
        strategy, schema, category = self.choose_retry(history[-1])
        decode_with: Mapping[str, Any] | None = None
        if schema:
            strategy, decode_with = self._decoding_schema(strategy, history[-1], decoding)
        messages: list[dict[str, str]] | None = None
        instructions = self.feedback_style == FeedbackStyle.INSTRUCTIONS
        if escalation is not None or (strategy == RetryStrategy.FEEDBACK and instructions):
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
            mode, resumed = FeedbackMode.FULL, False
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
            mode=AttemptMode(mode),
            resume_session_id=session_id if resumed else None,
            escalation=escalation,
            strategy=strategy,
            seed_offset=attempt - 1 if strategy in RESAMPLING else 0,
            messages=tuple(messages) if messages is not None else None,
            constrained=schema,
            retry_for=category,
            schema=decode_with,
        )

    def strategy_prompt(
        self,
        strategy: RetryStrategy,
        history: Sequence[HistoryItem],
        *,
        original_prompt: str,
        model: type[BaseModel] | None = None,
        payload_format: str = "JSON",
        decision: Decision | None = None,
    ) -> tuple[str, list[dict[str, str]] | None]:
        """(prompt text, chat messages or None) for a strategy other than instruction feedback."""
        outcomes = [outcome_of(item) for item in history]
        last = outcomes[-1]
        completion = self.feedback_style == FeedbackStyle.COMPLETION
        if strategy in (RetryStrategy.RESAMPLE, *SCHEMA_STRATEGIES):
            return original_prompt, None
        if strategy == RetryStrategy.FEEDBACK:  # completion style; instructions use feedback()
            return completion_feedback(original_prompt, last), None
        if strategy == RetryStrategy.HYBRID:
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
                        mode=FeedbackMode.RESUMED,
                        model=model,
                        max_errors_shown=self.max_errors_shown,
                        max_output_chars=self.max_output_chars,
                        payload_format=payload_format,
                    )
                )
        return turns[-1], history_messages(original_prompt, outcomes, turns)
