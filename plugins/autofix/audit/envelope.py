"""What was asked (Envelope), what came back (InteractionResult), and the pair (Interaction)."""

from __future__ import annotations

import hashlib
import json
import re
import uuid
from datetime import UTC, datetime
from typing import Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PrivateAttr,
    ValidationInfo,
    field_validator,
    model_validator,
)

from autofix.costs import CostSource
from autofix.notices import AgentNotice
from autofix.redact import redact_stored, redact_value
from autofix.result import (
    FailureKind,
    FieldError,
    ParseResult,
    RetryClass,
    Status,
    redact_lines,
    truncate,
)
from autofix.verification import Verification

# Bounds keep one record well under a few hundred KiB: a JSONL line and an S3 object alike.
MAX_INSTRUCTIONS_CHARS = 200_000
MAX_RAW_OUTPUT_CHARS = 32_000
MAX_ERROR_CHARS = 2_000
HASH_CHARS = 16

RECORD_VERSION = 1
ERROR_KEY_CHARS = 160
# What varies between two occurrences of one error: hex ids, numbers, quoted values.
_VARYING_RE = re.compile(
    r"0x[0-9a-fA-F]+|\b[0-9a-f]{8,}\b|\d+(?:\.\d+)?|'[^']{1,80}'|\"[^\"]{1,80}\""
)


def short_hash(text: str) -> str:
    """sha256 of ``text``, first 16 hex characters."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:HASH_CHARS]


def canonical_json(value: Any) -> str:
    """Key-sorted, whitespace-free JSON: the same content always gives the same bytes."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)


def utcnow() -> datetime:
    return datetime.now(UTC)


def aware(moment: datetime) -> datetime:
    """``moment`` with a time zone: a naive time (an older record, a CLI date) is read as UTC."""
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def utc(moment: datetime) -> datetime:
    """``moment`` in UTC, as the SQL store keeps every time (a naive one is read as UTC)."""
    return aware(moment).astimezone(UTC)


def new_id() -> str:
    return uuid.uuid4().hex


# Every text field is redacted when a model is built, so nothing unredacted can reach a store.
# Records read back from a store are trusted: ``context={"stored": True}`` (the read path of
# every store, through ``from_stored``) skips the redaction and hashing work.
def _stored(info: ValidationInfo) -> bool:
    return bool(info.context and info.context.get("stored"))


class EnvelopeBudget(BaseModel):
    """Per-call limits handed to the agent (run and day limits live in BudgetSettings)."""

    model_config = ConfigDict(extra="forbid")

    max_output_tokens: int | None = Field(default=None, ge=1)
    max_cost_usd: float | None = Field(default=None, gt=0)


class RetryPolicy(BaseModel):
    """The attempt policy this call ran under; extra keys (escalation, delays) are kept."""

    model_config = ConfigDict(extra="allow")

    max_attempts: int = Field(default=1, ge=1)
    feedback: bool = True
    abort_on_identical_errors: bool = True


class Envelope(BaseModel):
    """The inputs of one agent call. Build a new one per attempt (see :meth:`child`)."""

    model_config = ConfigDict(extra="ignore")

    envelope_id: str = Field(default_factory=new_id)
    trace_id: str  # the DAG run id
    causation_id: str | None = None  # the task instance or previous attempt that caused this call
    tenant_id: str = "default"
    operation: str
    agent_id: str = ""
    agent_type: str = ""
    provider: str | None = None
    model: str | None = None
    instructions: str = ""
    instructions_chars: int = 0  # length before bounding
    context: dict[str, Any] = Field(default_factory=dict)
    tools_allowed: list[str] = Field(default_factory=list)
    budget: EnvelopeBudget = Field(default_factory=EnvelopeBudget)
    expected_output_schema: dict[str, Any] | None = None
    response_format: Literal["text", "json", "json_schema"] = "text"
    temperature: float | None = Field(default=None, ge=0)
    deterministic: bool = False
    retry_policy: RetryPolicy = Field(default_factory=RetryPolicy)
    created_at: datetime = Field(default_factory=utcnow)
    hostname: str | None = None  # the worker that made the call (TraceContext.hostname)
    # The task instance that made the call (None in plain Python): where the UI links to.
    dag_id: str | None = None
    task_id: str | None = None
    map_index: int = -1
    try_number: int | None = None
    envelope_hash: str = ""
    _prepared: bool = PrivateAttr(default=False)

    @field_validator(
        "instructions",
        "trace_id",
        "dag_id",
        "task_id",
        "causation_id",
        "tenant_id",
        "operation",
        "agent_id",
        "agent_type",
        "provider",
        "model",
    )
    @classmethod
    def _redact_text(cls, value: str | None, info: ValidationInfo) -> str | None:
        return value if value is None or _stored(info) else redact_stored(value)

    @field_validator("context", "expected_output_schema")
    @classmethod
    def _redact_mapping(
        cls, value: dict[str, Any] | None, info: ValidationInfo
    ) -> dict[str, Any] | None:
        if value is None or _stored(info):
            return value
        cleaned = redact_value(value)
        return cleaned if isinstance(cleaned, dict) else {}

    @field_validator("tools_allowed")
    @classmethod
    def _redact_tools(cls, value: list[str], info: ValidationInfo) -> list[str]:
        return value if _stored(info) else [redact_stored(tool) for tool in value]

    @model_validator(mode="after")
    def _check_and_hash(self, info: ValidationInfo) -> Envelope:
        # Pydantic re-runs this when the instance is nested into another model: do it once.
        if _stored(info) or self._prepared:
            return self
        self._prepared = True
        if self.deterministic and self.temperature != 0:
            raise ValueError(
                f"operation {self.operation!r}: deterministic mode requires temperature == 0, "
                f"got {self.temperature!r}; set temperature=0 or deterministic=False"
            )
        # Hash the full redacted prompt, then bound what is stored.
        self.envelope_hash = short_hash(canonical_json(self.canonical_content()))
        self.instructions_chars = len(self.instructions)
        self.instructions = truncate(self.instructions, MAX_INSTRUCTIONS_CHARS)
        return self

    def canonical_content(self) -> dict[str, Any]:
        """What was asked, without ids and times: equal requests hash equally."""
        return self.model_dump(
            mode="json",
            exclude={
                "envelope_id",
                "trace_id",
                "causation_id",
                "created_at",
                "hostname",
                "dag_id",
                "task_id",
                "map_index",
                "try_number",
                "envelope_hash",
                "instructions_chars",
            },
        )

    def child(self, instructions: str, **changes: Any) -> Envelope:
        """The envelope of the next attempt: new id, caused by this one, same everything else."""
        data = self.model_dump(
            exclude={"envelope_id", "created_at", "envelope_hash", "instructions_chars"}
        )
        data.update(changes)
        data["instructions"] = instructions
        data["causation_id"] = self.envelope_id
        return Envelope.model_validate(data)


class InteractionResult(BaseModel):
    """The outputs of one agent call."""

    model_config = ConfigDict(extra="ignore")

    raw_output: str = ""
    raw_output_chars: int = 0  # length before bounding
    parsed_output: Any = None
    validation_passed: bool = False
    validation_errors: list[FieldError] = Field(default_factory=list)
    latency_ms: float = Field(default=0.0, ge=0)
    input_tokens: int = 0
    output_tokens: int = 0
    thinking_tokens: int = 0
    cached_input_tokens: int = 0  # part of input_tokens
    model: str | None = None  # the model that answered (the price key)
    # None with cost_source "unknown": no price for the model, never $0 (autofix.pricing).
    cost_usd: float | None = None
    cost_source: CostSource | None = None  # None: a record from before prices were kept
    attempt_number: int = Field(default=1, ge=1)
    error: str | None = None
    success: bool = False
    status: Status = Status.FAILED
    retry_class: RetryClass = RetryClass.NONE
    session_id: str | None = None
    finish_reason: str | None = None
    failure_kind: FailureKind | None = None
    noise_lines: int = 0
    error_lines: int = 0
    # Error lines on stderr that a structured result outweighed (the CLI's diagnostics).
    diagnostic_lines: int = 0
    # What the CLI reported about its run: denied tools, failed MCP servers, loops, compaction.
    notices: list[AgentNotice] = Field(default_factory=list)
    matched_rules: list[str] = Field(default_factory=list)
    # Non-noise stderr lines (ParseResult.stderr_sample): `autofix patterns suggest` reads them.
    stderr_sample: list[str] = Field(default_factory=list)
    # The verify= checks after this attempt (redacted and bounded when they were made).
    verification: list[Verification] = Field(default_factory=list)
    output_hash: str = ""
    _prepared: bool = PrivateAttr(default=False)

    @field_validator("session_id", "finish_reason", "model")
    @classmethod
    def _redact_short(cls, value: str | None, info: ValidationInfo) -> str | None:
        return value if value is None or _stored(info) else redact_stored(value)

    @field_validator("error")
    @classmethod
    def _redact_error(cls, value: str | None, info: ValidationInfo) -> str | None:
        if value is None or _stored(info):
            return value
        return truncate(redact_stored(value), MAX_ERROR_CHARS)

    @field_validator("parsed_output")
    @classmethod
    def _redact_parsed(cls, value: Any, info: ValidationInfo) -> Any:
        return value if _stored(info) else redact_value(value)

    @field_validator("stderr_sample")
    @classmethod
    def _redact_sample(cls, value: list[str], info: ValidationInfo) -> list[str]:
        if _stored(info):
            return value
        return redact_lines([truncate(line, 300) for line in value[:40]])

    @field_validator("matched_rules")
    @classmethod
    def _redact_rules(cls, value: list[str], info: ValidationInfo) -> list[str]:
        return value if _stored(info) else [redact_stored(rule) for rule in value]

    @model_validator(mode="after")
    def _bound_output(self, info: ValidationInfo) -> InteractionResult:
        if _stored(info) or self._prepared:
            return self
        self._prepared = True
        text = redact_stored(self.raw_output)
        self.output_hash = short_hash(text) if text else ""
        self.raw_output_chars = len(text)
        self.raw_output = truncate(text, MAX_RAW_OUTPUT_CHARS)
        return self

    @property
    def total_tokens(self) -> int:
        return self.input_tokens + self.output_tokens + self.thinking_tokens

    @property
    def valid(self) -> bool:
        """A valid answer: the call succeeded and its output passed validation (a chain that
        ends so recovered; a retry that comes back so counts for the alert)."""
        return self.success and self.validation_passed

    @property
    def error_key(self) -> str | None:
        """The first error this attempt failed with, its numbers and ids folded, so that one
        error recurring across runs counts as one (the UI's top recurring errors)."""
        if self.success:
            return None
        if self.validation_errors:
            first = self.validation_errors[0]
            text = f"{first.category.value}: {first.path}: {first.message}"
        elif self.error:
            text = self.error.strip().splitlines()[0] if self.error.strip() else ""
        else:
            text = self.failure_kind.value if self.failure_kind is not None else ""
        folded = _VARYING_RE.sub("#", text).strip()
        return folded[:ERROR_KEY_CHARS] or None

    @property
    def error_categories(self) -> list[str]:
        """Distinct validation error categories, in first-seen order."""
        return list(dict.fromkeys(error.category.value for error in self.validation_errors))


class Interaction(BaseModel):
    """One attempt: the envelope plus its result. The unit every store appends."""

    model_config = ConfigDict(extra="ignore")

    kind: Literal["interaction"] = "interaction"
    v: int = RECORD_VERSION
    envelope: Envelope
    result: InteractionResult
    recorded_at: datetime = Field(default_factory=utcnow)

    @property
    def envelope_id(self) -> str:
        return self.envelope.envelope_id

    @property
    def trace_id(self) -> str:
        return self.envelope.trace_id

    @property
    def operation(self) -> str:
        return self.envelope.operation

    @property
    def attempt(self) -> int:
        return self.result.attempt_number

    @property
    def is_final(self) -> bool:
        """No further attempt will follow: success, a non-feedback failure, or attempts used up."""
        result = self.result
        if result.success:
            return True
        if result.retry_class is not RetryClass.INVALID_OUTPUT:
            return True
        if result.verification and not result.verification[-1].feedback:
            return True  # a failed verification that nothing was sent back for: the loop stopped
        return result.attempt_number >= self.envelope.retry_policy.max_attempts

    @classmethod
    def from_stored(cls, data: dict[str, Any]) -> Interaction:
        return cls.model_validate(data, context={"stored": True})


def interaction_from_parse_result(
    envelope: Envelope,
    result: ParseResult,
    *,
    raw_output: str | None = None,
    latency_ms: float | None = None,
    attempt_number: int | None = None,
) -> Interaction:
    """Build the Interaction for one attempt from the parser's verdict.

    ``raw_output`` defaults to the agent's final text; ``latency_ms`` to the parser's duration.
    """
    if latency_ms is None:
        latency_ms = (result.duration_s or 0.0) * 1000.0
    field_errors = list(result.field_errors)
    passed = result.success and not field_errors
    fields: dict[str, Any] = dict(
        raw_output=raw_output if raw_output is not None else (result.final_text or ""),
        parsed_output=result.data,
        validation_passed=passed,
        validation_errors=field_errors,
        latency_ms=max(0.0, latency_ms),
        input_tokens=result.usage.input_tokens,
        output_tokens=result.usage.output_tokens,
        thinking_tokens=result.usage.thinking_tokens,
        cached_input_tokens=result.usage.cached_input_tokens,
        model=result.model,
        cost_usd=result.cost_usd,
        cost_source=result.cost_source,
        attempt_number=attempt_number if attempt_number is not None else max(1, result.attempt),
        error=result.error_message or None,
        success=result.success,
        status=result.status,
        retry_class=result.retry_class,
        session_id=result.session_id,
        finish_reason=result.finish_reason,
        failure_kind=result.failure_kind,
        noise_lines=result.noise_lines,
        error_lines=result.error_lines,
        diagnostic_lines=result.diagnostic_lines,
        notices=list(result.notices),
        matched_rules=list(result.matched_rules),
        stderr_sample=list(result.stderr_sample),
        verification=list(result.verification),
    )
    return Interaction(
        envelope=envelope,
        # Redacted again on purpose: a ParseResult changed by model_copy skips its validators.
        result=InteractionResult.model_validate(fields),
    )
