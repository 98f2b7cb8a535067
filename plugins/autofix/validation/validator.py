"""One output in, one ValidationOutcome out: extraction, repair, schema and semantic checks.

This is the step an operator runs once per attempt. It never calls an agent and never
decides about retries (that is loop.AttemptPolicy).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

from autofix.errors import PayloadError
from autofix.redact import redact
from autofix.result import (
    KIND_BY_STATUS,
    RETRY_CLASS_BY_STATUS,
    BlockSource,
    ErrorBlock,
    ErrorCategory,
    FieldError,
    FinishReason,
    ParseResult,
    Status,
    format_error_message,
    normalise_finish_reason,
)
from autofix.validation.extract import PayloadFormat
from autofix.validation.repair import Normaliser, parse_payload
from autofix.validation.schema import (
    ROOT,
    SchemaLike,
    SemanticValidator,
    describe_schema,
    preferred_format,
    resolve_schema,
    schema_at,
    show,
    validate_value,
)

ErrorKey = tuple[str, str]


# Only consulted when no payload was found at all, and only on short answers.
_REFUSAL_TEXT = re.compile(
    r"^\W*(?:I'm sorry|I am sorry|Sorry)?[,.!\s]*(?:but\s+)?I\s+(?:can(?:no|')t|cannot|won't|will not|am not able to|'m not able to|am unable to|'m unable to)\s+(?:help|assist|comply|provide|do that|complete)",
    re.IGNORECASE,
)
_REFUSAL_MAX_CHARS = 600

_UNSET: Any = object()


def error_keys(errors: Sequence[FieldError]) -> frozenset[ErrorKey]:
    """What "the same errors" means: the set of (path, category)."""
    return frozenset((e.path, e.category.value) for e in errors)


@dataclass(frozen=True)
class ValidationOutcome:
    """The verdict on one output.

    ``status`` is ``completed`` (``value`` holds the model instance), ``invalid_output``,
    ``truncated`` or ``refused``. ``raw_output`` is kept unredacted in memory; everything
    that leaves the process (feedback, reports, ParseResult) is redacted.
    """

    status: Status
    raw_output: str
    value: BaseModel | None = None
    data: Any = None
    errors: tuple[FieldError, ...] = ()
    repairs: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()
    finish_reason: FinishReason | None = None
    fmt: str | None = None

    @property
    def ok(self) -> bool:
        return self.status is Status.COMPLETED

    @property
    def error_keys(self) -> frozenset[ErrorKey]:
        return error_keys(self.errors)

    def summary(self, limit: int = 3) -> str:
        if self.ok:
            return "valid"
        if self.status is Status.REFUSED:
            return "the agent refused"
        shown = "; ".join(
            f"{e.path} ({e.category.value}): {e.message}" for e in self.errors[:limit]
        )
        more = f" (+{len(self.errors) - limit} more)" if len(self.errors) > limit else ""
        return f"{self.status.value}: {len(self.errors)} error(s): {shown}{more}"

    def to_parse_result(
        self,
        base: ParseResult | None = None,
        *,
        operation: str | None = None,
        attempt: int = 1,
        attempts: int = 1,
    ) -> ParseResult:
        """Fold this outcome into the operator's ParseResult (or a new one) for XCom."""
        fields: dict[str, Any] = base.model_dump() if base is not None else {}
        op = operation if operation is not None else fields.get("operation", "")
        fields.update(
            success=self.ok,
            status=self.status,
            operation=op,
            retry_class=RETRY_CLASS_BY_STATUS[self.status],
            # The agent's own kind (an empty answer, a cut) stays; validation names the rest.
            failure_kind=None
            if self.ok
            else fields.get("failure_kind") or KIND_BY_STATUS.get(self.status),
            retry_after_s=None if self.ok else fields.get("retry_after_s"),
            data=self.value.model_dump(mode="json") if self.value is not None else None,
            field_errors=list(self.errors),
            repairs=list(self.repairs),
            warnings=[*fields.get("warnings", []), *self.warnings],
            final_text=self.raw_output,
            finish_reason=self.finish_reason,
            attempt=attempt,
            attempts=attempts,
        )
        if not self.ok:
            fields["errors"] = [
                *fields.get("errors", []),
                *(
                    ErrorBlock(
                        text=f"{e.path}: {e.message}", source=BlockSource.VALIDATION
                    ).model_dump()
                    for e in self.errors
                ),
            ]
            fields["error_message"] = format_error_message(
                op, [f"attempt {attempt}/{attempts}: {self.summary()}"]
            )
        return ParseResult.model_validate(fields)

    @classmethod
    def from_parse_result(cls, result: ParseResult) -> ValidationOutcome:
        """Rebuild an outcome from a ParseResult pulled from XCom (``value`` stays None; ``data`` is set)."""
        status = (
            result.status
            if not (result.success and result.status is Status.COMPLETED)
            else Status.COMPLETED
        )
        data = result.data
        if data is None and status is not Status.COMPLETED and result.final_text:
            # Invalid payloads are not kept in ParseResult.data; re-read them for schema hints.
            try:
                data = parse_payload(result.final_text).value
            except PayloadError:
                data = None
        return cls(
            status=status,
            raw_output=result.final_text or "",
            data=data,
            errors=tuple(result.field_errors),
            repairs=tuple(result.repairs),
            finish_reason=result.finish_reason,
        )


@dataclass(frozen=True)
class OutputValidator:
    """Validates one agent output against ``schema``.

    ``fmt``: "json", "yaml" or "auto" (JSON, plus ```yaml fences); a model may declare
    ``__autofix_format__ = "yaml"``. ``strict_repairs``: a repair that may change meaning
    (content lost to truncation, a duplicate key overwritten, an invented value) makes the
    output invalid instead of being accepted with a warning. ``allow_empty`` turns off the
    empty-answer check.
    """

    schema: SchemaLike
    semantic_validators: Sequence[SemanticValidator] = ()
    normaliser: Normaliser | None = None
    fmt: PayloadFormat | None = None
    strict_repairs: bool = False
    allow_empty: bool = False
    detect_refusal_text: bool = True
    model: type[BaseModel] = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "model", resolve_schema(self.schema))

    @property
    def payload_format(self) -> PayloadFormat:
        declared = preferred_format(self.model)
        if self.fmt is not None:
            return self.fmt
        return "yaml" if declared == "yaml" else "auto"

    def validate(
        self, text: str | None, finish_reason: object = None, *, data: Any = _UNSET
    ) -> ValidationOutcome:
        """Validate ``text``; ``data`` skips extraction when the agent returned parsed output."""
        raw = text or ""
        finish = normalise_finish_reason(finish_reason)
        reason = finish
        if finish is FinishReason.REFUSAL:
            return ValidationOutcome(Status.REFUSED, raw, finish_reason=reason)
        cut_off = finish is FinishReason.LENGTH
        if data is not _UNSET:
            return self._check(raw, data, (), "json", reason, cut_off, truncated_payload=False)
        try:
            payload = parse_payload(raw, self.payload_format, self.normaliser)
        except PayloadError as exc:
            if cut_off or exc.truncated:
                return self._truncated(raw, reason, [])
            if (
                self.detect_refusal_text
                and exc.reason == "not_found"
                and len(raw) <= _REFUSAL_MAX_CHARS
                and _REFUSAL_TEXT.search(raw.strip())
            ):
                return ValidationOutcome(Status.REFUSED, raw, finish_reason=reason)
            error = FieldError(
                path=ROOT,
                category=ErrorCategory.STRUCTURAL_ERROR,
                message=str(exc),
                expected=self._root_shape(),
                actual=show(raw.strip()) if raw.strip() else "(empty)",
            )
            return ValidationOutcome(
                Status.INVALID_OUTPUT, raw, errors=(error,), finish_reason=reason
            )
        repairs = tuple(str(r) for r in payload.repairs)
        if self.strict_repairs and payload.changes_meaning:
            errors = [
                FieldError(
                    path=ROOT,
                    category=ErrorCategory.STRUCTURAL_ERROR,
                    message=f"the answer needed a repair that may change its meaning: {r.description}",
                    expected="well-formed, complete output",
                )
                for r in payload.repairs
                if r.changes_meaning
            ]
            if payload.truncated:
                return self._truncated(raw, reason, repairs)
            return ValidationOutcome(
                Status.INVALID_OUTPUT,
                raw,
                data=payload.value,
                errors=tuple(errors),
                repairs=repairs,
                finish_reason=reason,
                fmt=payload.fmt,
            )
        return self._check(
            raw, payload.value, repairs, payload.fmt, reason, cut_off, payload.truncated
        )

    def _check(
        self,
        raw: str,
        value: Any,
        repairs: tuple[str, ...],
        fmt: str,
        reason: FinishReason | None,
        cut_off: bool,
        truncated_payload: bool,
    ) -> ValidationOutcome:
        instance, errors = validate_value(
            value, self.model, self.semantic_validators, allow_empty=self.allow_empty
        )
        if instance is None:
            if cut_off or truncated_payload:
                return self._truncated(raw, reason, repairs)
            return ValidationOutcome(
                Status.INVALID_OUTPUT,
                raw,
                data=value,
                errors=tuple(errors),
                repairs=repairs,
                finish_reason=reason,
                fmt=fmt,
            )
        warnings: list[str] = [
            f"accepted after a repair that may change meaning: {r}"
            for r in repairs
            if r.endswith("(changes meaning)")
        ]
        if cut_off:
            warnings.append(
                "the agent hit its output limit, but the payload was complete and valid"
            )
        return ValidationOutcome(
            Status.COMPLETED,
            raw,
            value=instance,
            data=value,
            repairs=repairs,
            warnings=tuple(warnings),
            finish_reason=reason,
            fmt=fmt,
        )

    def _truncated(
        self, raw: str, reason: FinishReason | None, repairs: Sequence[str]
    ) -> ValidationOutcome:
        error = FieldError(
            path=ROOT,
            category=ErrorCategory.STRUCTURAL_ERROR,
            message="the answer was cut off before the payload was complete",
            expected="a complete payload within the output limit",
            actual=f"{len(raw)} characters, ending {show(raw[-60:])}",
        )
        return ValidationOutcome(
            Status.TRUNCATED, raw, errors=(error,), repairs=tuple(repairs), finish_reason=reason
        )

    def _root_shape(self) -> str:
        kind = "YAML" if self.payload_format == "yaml" else "JSON"
        return f"{kind}: {describe_schema(schema_at(self.model, []), self.model)}"


def redacted(text: str) -> str:
    return redact(text)
