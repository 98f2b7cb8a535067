"""The values that cross task boundaries: ParseResult and its parts.

Everything here is plain pydantic so it round-trips through Airflow's XCom serde
and through the audit store unchanged.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from enum import StrEnum
from typing import Any

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializationInfo,
    SerializerFunctionWrapHandler,
    field_validator,
    model_serializer,
    model_validator,
)

from autofix.costs import CostSource, combined_source
from autofix.finish import FinishReason as FinishReason  # re-exported: the value enums live here
from autofix.notices import AgentNotice
from autofix.redact import redact_stored, redact_stored_each, redact_value
from autofix.verification import Verification

MAX_BLOCK_CHARS = 500
MAX_MESSAGE_LINES = 3
SAMPLE_LINES = 40  # ParseResult.stderr_sample bounds
SAMPLE_LINE_CHARS = 300


class Status(StrEnum):
    """What happened to one agent call, from the parser's point of view."""

    COMPLETED = "completed"
    FAILED = "failed"
    TIMED_OUT = "timed_out"
    CRASHED = "crashed"
    UNKNOWN_FORMAT = "unknown_format"
    LIMIT_REACHED = "limit_reached"
    CANCELLED = "cancelled"
    INVALID_OUTPUT = "invalid_output"
    TRUNCATED = "truncated"
    REFUSED = "refused"
    AUTH_FAILED = "auth_failed"
    INVALID_REQUEST = "invalid_request"
    BUDGET_EXHAUSTED = "budget_exhausted"


class RetryClass(StrEnum):
    """How a failure should be retried (DESIGN.md, "Which failures retry how")."""

    NONE = "none"  # success: nothing to retry
    TRANSIENT = "transient"  # ordinary exception, Airflow retries with backoff
    ERROR = "error"  # an ordinary failure: Airflow's retries apply only as the task configures them
    INVALID_OUTPUT = "invalid_output"  # retry with feedback
    PERMANENT = "permanent"  # AgentPermanentError: no retry


RETRY_CLASS_BY_STATUS: dict[Status, RetryClass] = {
    Status.COMPLETED: RetryClass.NONE,
    Status.FAILED: RetryClass.ERROR,
    Status.TIMED_OUT: RetryClass.TRANSIENT,
    Status.CRASHED: RetryClass.ERROR,
    Status.UNKNOWN_FORMAT: RetryClass.PERMANENT,
    Status.LIMIT_REACHED: RetryClass.TRANSIENT,
    Status.CANCELLED: RetryClass.TRANSIENT,
    Status.INVALID_OUTPUT: RetryClass.INVALID_OUTPUT,
    Status.TRUNCATED: RetryClass.INVALID_OUTPUT,
    Status.REFUSED: RetryClass.PERMANENT,
    Status.AUTH_FAILED: RetryClass.PERMANENT,
    Status.INVALID_REQUEST: RetryClass.PERMANENT,
    Status.BUDGET_EXHAUSTED: RetryClass.PERMANENT,
}


class RunStatus(StrEnum):
    """How an agent run ended, as its own event stream says."""

    COMPLETED = "completed"
    FAILED = "failed"
    CANCELLED = "cancelled"
    LIMIT_REACHED = "limit_reached"
    UNKNOWN = "unknown"


class FailureKind(StrEnum):
    """Why an agent run failed. Decided from structured fields first (agents/failures.py);
    ``FAILURE_KINDS`` gives each its status and retry class."""

    # Transient: raise an ordinary exception, Airflow's retries apply (after ``retry_after_s``).
    RATE_LIMIT = "rate_limit"  # 429: too many requests or tokens per minute
    USAGE_LIMIT = "usage_limit"  # a plan's 5-hour / weekly / daily limit, with a reset time
    OVERLOADED = "overloaded"  # 529, model at capacity
    SERVER_ERROR = "server_error"  # 5xx after the CLI's own retries
    CONNECTION = "connection"  # refused, reset, dropped stream, no network
    TIMEOUT = "timeout"  # autofix's wall-clock or idle timeout, or an HTTP 408
    CANCELLED = "cancelled"  # SIGINT, exit 130, or autofix's own kill (Airflow's on_kill)
    KILLED = "killed"  # a signal from outside (SIGKILL, SIGTERM): the OOM killer, a host restart
    # Invalid output: retried with feedback where an output schema is set.
    MAX_TOKENS = "max_tokens"  # the answer was cut by the output-token limit
    EMPTY_ANSWER = "empty_answer"  # the run ended without answer text
    STRUCTURED_OUTPUT = "structured_output"  # the answer does not fit the schema
    LOOP_DETECTED = "loop_detected"  # the CLI stopped the model repeating itself
    VERIFICATION_FAILED = "verification_failed"  # success claimed, a verify= check failed
    # Permanent: AgentPermanentError, no retry; a person must change something first.
    AUTH = "auth"  # no, bad or expired credentials
    # Out of credit, over a spend limit, no quota at all: only a payment or a raised limit helps
    # ("check your plan and billing"); never autofix's own budget.
    QUOTA_EXHAUSTED = "quota_exhausted"
    PERMISSION = "permission"  # valid credentials, not allowed (403, suspended, region)
    INVALID_REQUEST = "invalid_request"  # 400/404/422, incl. an unknown model
    CONTEXT_WINDOW = "context_window"  # the prompt does not fit the model
    REFUSAL = "refusal"  # a refusal or a safety block
    MAX_TURNS = "max_turns"  # the CLI's turn cap for this prompt
    SPEND_CAP = "spend_cap"  # the CLI's own per-run cost cap (claude --max-budget-usd)
    BUDGET_EXHAUSTED = "budget_exhausted"  # autofix's budget (audit.budget); nothing else sets it
    CONFIG = "config"  # the CLI refused to start with this setup (untrusted dir, bad settings)
    MISSING_CLI = "missing_cli"  # the agent CLI's executable is not installed where autofix looks
    # Ordinary failures: Airflow's retries apply as the task configures them.
    API_ERROR = "api_error"  # an API error the output does not explain
    CRASHED = "crashed"  # autofix's own machinery failed
    UNKNOWN = "unknown"  # no terminal event, nothing recognisable


FAILURE_KINDS: dict[FailureKind, tuple[Status, RetryClass]] = {
    FailureKind.RATE_LIMIT: (Status.LIMIT_REACHED, RetryClass.TRANSIENT),
    FailureKind.USAGE_LIMIT: (Status.LIMIT_REACHED, RetryClass.TRANSIENT),
    FailureKind.QUOTA_EXHAUSTED: (Status.LIMIT_REACHED, RetryClass.PERMANENT),
    FailureKind.OVERLOADED: (Status.FAILED, RetryClass.TRANSIENT),
    FailureKind.SERVER_ERROR: (Status.FAILED, RetryClass.TRANSIENT),
    FailureKind.CONNECTION: (Status.FAILED, RetryClass.TRANSIENT),
    FailureKind.TIMEOUT: (Status.TIMED_OUT, RetryClass.TRANSIENT),
    FailureKind.CANCELLED: (Status.CANCELLED, RetryClass.TRANSIENT),
    FailureKind.KILLED: (Status.FAILED, RetryClass.TRANSIENT),
    FailureKind.MAX_TOKENS: (Status.TRUNCATED, RetryClass.INVALID_OUTPUT),
    FailureKind.EMPTY_ANSWER: (Status.INVALID_OUTPUT, RetryClass.INVALID_OUTPUT),
    FailureKind.STRUCTURED_OUTPUT: (Status.INVALID_OUTPUT, RetryClass.INVALID_OUTPUT),
    FailureKind.LOOP_DETECTED: (Status.INVALID_OUTPUT, RetryClass.INVALID_OUTPUT),
    FailureKind.VERIFICATION_FAILED: (Status.INVALID_OUTPUT, RetryClass.INVALID_OUTPUT),
    FailureKind.AUTH: (Status.AUTH_FAILED, RetryClass.PERMANENT),
    FailureKind.PERMISSION: (Status.AUTH_FAILED, RetryClass.PERMANENT),
    FailureKind.INVALID_REQUEST: (Status.INVALID_REQUEST, RetryClass.PERMANENT),
    FailureKind.CONTEXT_WINDOW: (Status.INVALID_REQUEST, RetryClass.PERMANENT),
    FailureKind.REFUSAL: (Status.REFUSED, RetryClass.PERMANENT),
    FailureKind.MAX_TURNS: (Status.FAILED, RetryClass.PERMANENT),
    FailureKind.SPEND_CAP: (Status.FAILED, RetryClass.PERMANENT),
    FailureKind.BUDGET_EXHAUSTED: (Status.BUDGET_EXHAUSTED, RetryClass.PERMANENT),
    FailureKind.CONFIG: (Status.INVALID_REQUEST, RetryClass.PERMANENT),
    FailureKind.MISSING_CLI: (Status.INVALID_REQUEST, RetryClass.PERMANENT),
    FailureKind.API_ERROR: (Status.FAILED, RetryClass.ERROR),
    FailureKind.CRASHED: (Status.CRASHED, RetryClass.ERROR),
    FailureKind.UNKNOWN: (Status.FAILED, RetryClass.ERROR),
}

# What AIWrapperOperator does with each retry class (docs/failure-kinds.md).
RETRY_ACTIONS: dict[RetryClass, str] = {
    RetryClass.NONE: "the task succeeds",
    RetryClass.TRANSIENT: "an ordinary exception: Airflow's retries apply, after the wait the "
    "output asked for when it gave one",
    RetryClass.ERROR: "an ordinary exception: Airflow's retries apply as the task sets them",
    RetryClass.INVALID_OUTPUT: "retried with feedback inside the task when output_schema or "
    "verify= is set, then AgentPermanentError",
    RetryClass.PERMANENT: "AgentPermanentError: one line, no retry",
}

# A status decided without a kind (validation, a caller's run status) → the kind it stands for.
KIND_BY_STATUS: dict[Status, FailureKind] = {
    Status.TIMED_OUT: FailureKind.TIMEOUT,
    Status.CRASHED: FailureKind.CRASHED,
    Status.CANCELLED: FailureKind.CANCELLED,
    Status.INVALID_OUTPUT: FailureKind.STRUCTURED_OUTPUT,
    Status.TRUNCATED: FailureKind.MAX_TOKENS,
    Status.REFUSED: FailureKind.REFUSAL,
    Status.AUTH_FAILED: FailureKind.AUTH,
    Status.INVALID_REQUEST: FailureKind.INVALID_REQUEST,
    Status.BUDGET_EXHAUSTED: FailureKind.BUDGET_EXHAUSTED,
    Status.LIMIT_REACHED: FailureKind.RATE_LIMIT,
    Status.UNKNOWN_FORMAT: FailureKind.UNKNOWN,
    Status.FAILED: FailureKind.UNKNOWN,
}


class Outcome(StrEnum):
    """Where a ParseResult routes in a branch."""

    SUCCESS = "success"
    RETRY = "retry"
    FAILURE = "failure"


class BlockSource(StrEnum):
    """Where an error block was found."""

    STDERR = "stderr"
    STDOUT = "stdout"
    AGENT = "agent"  # the agent's own error events
    RUNNER = "runner"  # autofix's own machinery (e.g. the pattern time budget)
    VALIDATION = "validation"  # a field error in the structured answer


class ErrorCategory(StrEnum):
    """Validation error categories, most critical first (feedback order)."""

    REQUIRED_MISSING = "required_missing"
    TYPE_MISMATCH = "type_mismatch"
    PATTERN_VIOLATION = "pattern_violation"
    RANGE_VIOLATION = "range_violation"
    STRUCTURAL_ERROR = "structural_error"
    SEMANTIC_ERROR = "semantic_error"


class RetryStrategy(StrEnum):
    """What the attempt after an invalid answer sends (autofix.validation.strategies).

    Recorded per retry in the audit envelope's context (``strategy``).
    """

    FEEDBACK = "feedback"  # the previous answer and its errors
    RESAMPLE = "resample"  # the same prompt again with a new seed; the errors are not shown
    HYBRID = "feedback+resample"  # the errors as a note, without the old answer, and a new seed
    HISTORY = "history"  # the whole conversation so far plus the errors
    CONSTRAINED = "constrained"  # the JSON schema goes to the endpoint, a new seed on retries
    # The last answer's valid fields kept verbatim, only the failing ones decoded again under
    # the schema (validation/decoding.py); a new seed
    TARGETED = "targeted"
    ADAPTIVE = "adaptive"  # per error category, the best recovery rate in the audit store
    AUTO = "auto"  # adaptive + constrained where the agent takes a seed and a schema, else feedback


def bounded_sample(lines: list[str]) -> list[str]:
    """At most SAMPLE_LINES lines of at most SAMPLE_LINE_CHARS characters, redacted."""
    return redact_lines([truncate(line, SAMPLE_LINE_CHARS) for line in lines[:SAMPLE_LINES]])


def redact_lines(lines: list[str]) -> list[str]:
    """Each line redacted, in one pass over them all (no secret spans a newline)."""
    if not lines:
        return []
    return redact_stored("\n".join(line.replace("\n", " ") for line in lines)).split("\n")


def truncate(text: str, limit: int) -> str:
    """Cut ``text`` to ``limit`` characters, marking the cut."""
    if len(text) <= limit:
        return text
    return text[: max(0, limit - 1)] + "…"


def truncate_block(text: str, limit: int = MAX_BLOCK_CHARS) -> str:
    """An error block cut to ``limit`` characters keeping its start and its end: a long
    traceback says what went wrong in its last line, which a cut from the start would lose."""
    if len(text) <= limit:
        return text
    head = limit * 2 // 5
    tail = limit - head - 3
    return text[:head] + "\n…\n" + text[-tail:]


class BlockWeight(StrEnum):
    """How much an error block weighs against a tool's success summary (classify/verdict.py)."""

    ERROR = "error"  # outweighed by a success summary printed after it or on the other stream
    FATAL = "fatal"  # a crash or the OOM killer: never outweighed
    SUMMARY = "summary"  # the tool's own failure summary: never outweighed
    RECOVERED = "recovered"  # followed by a retry notice: does not count
    VACUOUS = "vacuous"  # the tool ran nothing (no test selected): any success summary outweighs it


class ErrorBlock(BaseModel):
    """One error found in the output: a line or a whole multi-line block."""

    model_config = ConfigDict(frozen=True)

    text: str
    rule_id: str | None = None
    source: BlockSource = BlockSource.STDERR
    line_no: int | None = None
    weight: BlockWeight = BlockWeight.ERROR
    # The block ends its stream (nothing but noise after it): an uncaught error, not a logged one.
    uncaught: bool = False

    @field_validator("text")
    @classmethod
    def _bound_and_redact(cls, value: str) -> str:
        return truncate_block(redact_stored(value))

    @field_validator("rule_id")
    @classmethod
    def _redact_rule(cls, value: str | None) -> str | None:
        return None if value is None else redact_stored(value)


class FieldError(BaseModel):
    """One validation error, addressed by its full field path."""

    model_config = ConfigDict(frozen=True)

    path: str
    category: ErrorCategory
    message: str
    expected: str | None = None
    actual: str | None = None

    @field_validator("message", "expected", "actual")
    @classmethod
    def _bound(cls, value: str | None) -> str | None:
        return None if value is None else truncate(redact_stored(value), 200)

    @field_validator("path")
    @classmethod
    def _redact_path(cls, value: str) -> str:
        return redact_stored(value)


class TokenUsage(BaseModel):
    input_tokens: int = 0
    output_tokens: int = 0
    cached_input_tokens: int = 0
    thinking_tokens: int = 0

    @property
    def total(self) -> int:
        return self.input_tokens + self.output_tokens + self.thinking_tokens

    def __add__(self, other: TokenUsage) -> TokenUsage:
        return TokenUsage(
            input_tokens=self.input_tokens + other.input_tokens,
            output_tokens=self.output_tokens + other.output_tokens,
            cached_input_tokens=self.cached_input_tokens + other.cached_input_tokens,
            thinking_tokens=self.thinking_tokens + other.thinking_tokens,
        )


class AttemptSpend(BaseModel):
    """What one agent call of a task cost: an attempt of an Airflow try."""

    try_number: int = 1  # the Airflow try
    attempt: int = 1  # the call within that try (validation retries)
    status: Status
    cost_usd: float | None = None
    cost_source: CostSource | None = None
    model: str | None = None
    usage: TokenUsage = Field(default_factory=TokenUsage)
    duration_s: float | None = None


class Evidence(BaseModel):
    """A line that decided a verdict: its role, the rule, where it was and what it said."""

    model_config = ConfigDict(frozen=True)

    role: str  # e.g. "uncaught error", "failure summary", "success summary", "outweighed error"
    rule_id: str | None = None
    stream: str = "stderr"
    line_no: int | None = None
    text: str = ""

    @field_validator("text")
    @classmethod
    def _bound_and_redact(cls, value: str) -> str:
        return truncate(redact_stored(value), 300)


class ParseResult(BaseModel):
    """The verdict on one agent call. Pushed to XCom; read by branches and the audit."""

    success: bool
    status: Status
    operation: str = ""
    exit_code: int | None = None
    run_status: RunStatus | None = None
    errors: list[ErrorBlock] = Field(default_factory=list)
    error_message: str = ""
    noise_lines: int = 0
    neutral_lines: int = 0
    error_lines: int = 0
    matched_rules: list[str] = Field(default_factory=list)
    # The lines and rules that decided the verdict, most decisive first (classify/verdict.py).
    evidence: list[Evidence] = Field(default_factory=list)
    # Distinct non-noise stderr lines (error blocks, outweighed ones too, and the tail), bounded
    # and redacted: what `autofix patterns suggest` learns noise from, through the audit.
    stderr_sample: list[str] = Field(default_factory=list)
    patterns_source: str = "defaults"
    retry_class: RetryClass = RetryClass.NONE
    failure_kind: FailureKind | None = None  # why it failed (FAILURE_KINDS); None on success
    retry_after_s: float | None = None  # the wait the output asked for (a reset time, retry-after)
    warnings: list[str] = Field(default_factory=list)
    # What the CLI reported in its structured output (denied tools, failed MCP servers, loops,
    # compaction): shown in the verdict, a failure only where the task's ``fail_on`` says so.
    notices: list[AgentNotice] = Field(default_factory=list)
    # Error lines on stderr that did not count against a structured success: the CLI's own
    # diagnostics (debug and log output, warnings, errors of tools the agent recovered from).
    diagnostic_lines: int = 0
    # What the agent reported about itself.
    agent: str | None = None
    session_id: str | None = None
    final_text: str | None = None
    finish_reason: FinishReason | None = None
    # The model that answered: as the CLI reported it, else the one asked for (the price key).
    model: str | None = None
    # None with cost_source "unknown": no price for the model; never a made-up $0.
    cost_usd: float | None = None
    cost_source: CostSource | None = None  # None: no agent call was made
    usage: TokenUsage = Field(default_factory=TokenUsage)
    num_turns: int | None = None
    duration_s: float | None = None
    # Structured output, once validated.
    data: Any = None
    field_errors: list[FieldError] = Field(default_factory=list)
    repairs: list[str] = Field(default_factory=list)
    attempt: int = 1
    attempts: int = 1
    # Every agent call of the task (validation attempts, Airflow tries) when it made several:
    # ``cost_usd`` and ``usage`` are then their sums.
    per_attempt: list[AttemptSpend] = Field(default_factory=list)
    # The verify= checks after each attempt that claimed success (autofix.verification).
    verification: list[Verification] = Field(default_factory=list)

    @field_validator("stderr_sample")
    @classmethod
    def _bound_sample(cls, value: list[str]) -> list[str]:
        return bounded_sample(value)

    @field_validator("run_status", mode="before")
    @classmethod
    def _known_run_status(cls, value: object) -> object:
        # A caller's own status word that autofix does not know is recorded as unknown.
        if isinstance(value, str) and value not in RunStatus.__members__.values():
            return RunStatus.UNKNOWN
        return value

    @model_validator(mode="after")
    def _redact(self) -> ParseResult:
        for name in _CLEANED_FIELDS:
            self.__dict__[name] = _clean_field(name, self.__dict__[name])
        return self

    # Redacted however it is changed: assignment (the parser fills a result in place) and
    # model_copy(update=...), which skip pydantic's validators.
    def __setattr__(self, name: str, value: Any) -> None:
        super().__setattr__(name, _clean_field(name, value))

    def model_copy(
        self, *, update: Mapping[str, Any] | None = None, deep: bool = False
    ) -> ParseResult:
        if update:
            update = {name: _clean_field(name, value) for name, value in update.items()}
        return super().model_copy(update=update, deep=deep)

    @property
    def outcome(self) -> Outcome:
        if self.success:
            return Outcome.SUCCESS
        if self.retry_class is RetryClass.INVALID_OUTPUT:
            return Outcome.RETRY
        return Outcome.FAILURE

    def spend(self, try_number: int = 1) -> AttemptSpend:
        """This call's own cost, as one entry of ``per_attempt``."""
        return AttemptSpend(
            try_number=try_number,
            attempt=self.attempt,
            status=self.status,
            cost_usd=self.cost_usd,
            cost_source=self.cost_source,
            model=self.model,
            usage=self.usage,
            duration_s=self.duration_s,
        )

    def with_spend(self, spend: list[AttemptSpend]) -> ParseResult:
        """This verdict with ``cost_usd`` and ``usage`` summed over ``spend`` (kept as
        ``per_attempt``); unchanged for a single call. One call of unknown cost makes the sum
        unknown too: a partial sum would read as the whole cost."""
        if len(spend) < 2:
            return self.model_copy(update={"per_attempt": []})
        source = combined_source([item.cost_source for item in spend])
        costs = [item.cost_usd for item in spend if item.cost_usd is not None]
        usage = TokenUsage()
        for item in spend:
            usage += item.usage
        known = bool(costs) and source is not CostSource.UNKNOWN
        return self.model_copy(
            update={
                "cost_usd": round(sum(costs), 6) if known else None,
                "cost_source": source,
                "usage": usage,
                "per_attempt": list(spend),
            }
        )

    # The JSON form is what leaves the process (XCom through Airflow's serde, the CLI):
    # redacted again, since a secret may have been registered after construction, and with
    # the keys Airflow's serde reserves escaped, or an answer holding one fails the push.
    @model_serializer(mode="wrap")
    def _exit(
        self, handler: SerializerFunctionWrapHandler, info: SerializationInfo
    ) -> dict[str, Any]:
        dumped: dict[str, Any] = handler(self)
        if not info.mode_is_json():
            return dumped
        dumped = redact_value(dumped, by_name=False)
        if "data" in dumped:
            dumped["data"] = _serde_keys(dumped["data"], _SERDE_ESCAPE)
        return dumped

    @model_validator(mode="before")
    @classmethod
    def _unescape(cls, data: Any) -> Any:
        if isinstance(data, dict) and isinstance(data.get("data"), dict | list):
            data = {**data, "data": _serde_keys(data["data"], _SERDE_UNESCAPE)}
        return data


# Keys Airflow's serde reserves: an answer holding one would make the XCom push fail.
_SERDE_ESCAPE = {key: f"autofix:{key}" for key in ("__classname__", "__id__")}
_SERDE_UNESCAPE = {escaped: key for key, escaped in _SERDE_ESCAPE.items()}


def _serde_keys(value: Any, renames: Mapping[str, str]) -> Any:
    if isinstance(value, dict):
        return {renames.get(k, k): _serde_keys(v, renames) for k, v in value.items()}
    if isinstance(value, list):
        return [_serde_keys(item, renames) for item in value]
    return value


_TEXT_FIELDS = frozenset(
    {"operation", "error_message", "patterns_source", "agent", "session_id", "final_text", "model"}
)
_TEXT_LIST_FIELDS = frozenset({"warnings", "matched_rules", "repairs"})
_NUMBER_FIELDS = frozenset({"cost_usd", "duration_s"})
_CLEANED_FIELDS = (*_TEXT_FIELDS, *_TEXT_LIST_FIELDS, *_NUMBER_FIELDS, "data")


def _clean_field(name: str, value: Any) -> Any:
    """One ParseResult field as it may be stored: text redacted, NaN and infinities dropped."""
    if name in _TEXT_FIELDS:
        return redact_stored(value) if isinstance(value, str) else value
    if name in _TEXT_LIST_FIELDS:
        if isinstance(value, list) and all(isinstance(item, str) for item in value):
            return redact_stored_each(value)  # one pass: matched_rules holds dozens of ids
        if isinstance(value, list):
            return [redact_stored(item) if isinstance(item, str) else item for item in value]
        return value
    if name in _NUMBER_FIELDS:
        return value if not isinstance(value, float) or math.isfinite(value) else None
    if name == "data":
        return redact_value(value, by_name=False)
    return value


def format_error_message(operation: str, lines: list[str]) -> str:
    """``[operation] `` plus at most 3 lines of at most 500 characters in all."""
    picked: list[str] = []
    for text in lines:
        for line in text.splitlines():
            if line.strip():
                picked.append(line.strip())
            if len(picked) == MAX_MESSAGE_LINES:
                break
        if len(picked) == MAX_MESSAGE_LINES:
            break
    prefix = f"[{operation}] " if operation else ""
    return truncate(redact_stored(prefix + "\n".join(picked)), MAX_BLOCK_CHARS)
