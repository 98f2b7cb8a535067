"""The values that cross task boundaries: ParseResult and its parts.

Everything here is plain pydantic so it round-trips through Airflow's XCom serde
and through the audit store unchanged.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

from autofix.redact import redact

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
    PERMANENT = "permanent"  # AirflowFailException


RETRY_CLASS_BY_STATUS: dict[Status, RetryClass] = {
    Status.COMPLETED: RetryClass.NONE,
    Status.FAILED: RetryClass.ERROR,
    Status.TIMED_OUT: RetryClass.TRANSIENT,
    Status.CRASHED: RetryClass.ERROR,
    Status.UNKNOWN_FORMAT: RetryClass.PERMANENT,
    Status.LIMIT_REACHED: RetryClass.TRANSIENT,
    Status.CANCELLED: RetryClass.ERROR,
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


class FinishReason(StrEnum):
    """Why the model stopped writing, normalised across providers."""

    STOP = "stop"
    LENGTH = "length"
    REFUSAL = "refusal"
    MAX_TURNS = "max_turns"
    ERROR = "error"


_LENGTH_STOPS = frozenset(
    {"max_tokens", "length", "max_output_tokens", "model_length", "token_limit"}
)
_REFUSAL_STOPS = frozenset(
    {
        "refusal",
        "content_filter",
        "safety",
        "recitation",
        "prohibited_content",
        "blocklist",
        "blocked",
        "spii",
    }
)
_NORMAL_STOPS = frozenset(
    {"end_turn", "stop", "stop_sequence", "tool_use", "pause_turn", "completed"}
)


def normalise_finish_reason(value: object) -> FinishReason | None:
    """Claude ``stop_reason``, OpenAI ``finish_reason``, Gemini ``finishReason`` → FinishReason."""
    if value is None:
        return None
    text = str(getattr(value, "value", value)).strip().lower()
    if text in _LENGTH_STOPS:
        return FinishReason.LENGTH
    if text in _REFUSAL_STOPS:
        return FinishReason.REFUSAL
    if text in _NORMAL_STOPS:
        return FinishReason.STOP
    try:
        return FinishReason(text)
    except ValueError:
        return None


class FailureKind(StrEnum):
    """Why an agent run failed, as far as its own events tell. Drives the retry class."""

    RATE_LIMIT = "rate_limit"  # transient
    USAGE_LIMIT = "usage_limit"  # transient
    SERVER_ERROR = "server_error"  # transient
    TIMEOUT = "timeout"  # transient
    CONNECTION = "connection"  # transient
    AUTH = "auth"  # permanent
    INVALID_REQUEST = "invalid_request"  # permanent
    BUDGET = "budget"  # permanent
    REFUSAL = "refusal"  # permanent
    MAX_TURNS = "max_turns"  # permanent for this prompt
    STRUCTURED_OUTPUT = "structured_output"  # invalid output
    API_ERROR = "api_error"  # unknown API failure: permanent (fail-safe)
    UNKNOWN = "unknown"


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
    ADAPTIVE = "adaptive"  # per error category, the best recovery rate in the audit store
    AUTO = "auto"  # adaptive + constrained where the agent takes a seed and a schema, else feedback


def bounded_sample(lines: list[str]) -> list[str]:
    """At most SAMPLE_LINES lines of at most SAMPLE_LINE_CHARS characters, redacted."""
    return redact_lines([truncate(line, SAMPLE_LINE_CHARS) for line in lines[:SAMPLE_LINES]])


def redact_lines(lines: list[str]) -> list[str]:
    """Each line redacted, in one pass over them all (no secret spans a newline)."""
    if not lines:
        return []
    return redact("\n".join(line.replace("\n", " ") for line in lines)).split("\n")


def truncate(text: str, limit: int) -> str:
    """Cut ``text`` to ``limit`` characters, marking the cut."""
    if len(text) <= limit:
        return text
    return text[: max(0, limit - 1)] + "…"


class BlockWeight(StrEnum):
    """How much an error block weighs against a tool's success summary (classify/verdict.py)."""

    ERROR = "error"  # outweighed by a success summary printed after it or on the other stream
    FATAL = "fatal"  # a crash or the OOM killer: never outweighed
    SUMMARY = "summary"  # the tool's own failure summary: never outweighed
    RECOVERED = "recovered"  # followed by a retry notice: does not count


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
        return truncate(redact(value), MAX_BLOCK_CHARS)


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
        return None if value is None else truncate(redact(value), 200)


class TokenUsage(BaseModel):
    input_tokens: int = 0
    output_tokens: int = 0
    cached_input_tokens: int = 0
    thinking_tokens: int = 0

    @property
    def total(self) -> int:
        return self.input_tokens + self.output_tokens + self.thinking_tokens


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
        return truncate(redact(value), 300)


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
    warnings: list[str] = Field(default_factory=list)
    # What the agent reported about itself.
    agent: str | None = None
    session_id: str | None = None
    final_text: str | None = None
    finish_reason: FinishReason | None = None
    cost_usd: float | None = None
    usage: TokenUsage = Field(default_factory=TokenUsage)
    num_turns: int | None = None
    duration_s: float | None = None
    # Structured output, once validated.
    data: Any = None
    field_errors: list[FieldError] = Field(default_factory=list)
    repairs: list[str] = Field(default_factory=list)
    attempt: int = 1
    attempts: int = 1

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

    @field_validator("error_message", "final_text")
    @classmethod
    def _redact(cls, value: str | None) -> str | None:
        return None if value is None else redact(value)

    @property
    def outcome(self) -> Outcome:
        if self.success:
            return Outcome.SUCCESS
        if self.retry_class is RetryClass.INVALID_OUTPUT:
            return Outcome.RETRY
        return Outcome.FAILURE

    # Airflow serde hooks: XCom stores the JSON form and rebuilds the model.
    __version__ = 1

    def serialize(self) -> dict[str, Any]:
        return self.model_dump(mode="json")

    @staticmethod
    def deserialize(data: dict[str, Any], version: int) -> ParseResult:
        if version > ParseResult.__version__:
            raise TypeError(f"ParseResult version {version} is newer than this autofix understands")
        return ParseResult.model_validate(data)


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
    return truncate(redact(prefix + "\n".join(picked)), MAX_BLOCK_CHARS)
