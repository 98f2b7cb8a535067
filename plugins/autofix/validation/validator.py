"""One output in, one ValidationOutcome out: extraction, repair, schema and semantic checks."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

from autofix.errors import PayloadError
from autofix.finish import normalise_finish_reason
from autofix.result import ErrorCategory, FieldError, FinishReason, Status
from autofix.validation.cross_field import model_rules
from autofix.validation.extract import PayloadFormat
from autofix.validation.field_errors import SemanticValidator, validate_value
from autofix.validation.outcome import ValidationOutcome
from autofix.validation.repair import Normaliser, parse_payload
from autofix.validation.reply import LLMReply
from autofix.validation.schema import (
    ROOT,
    SchemaLike,
    describe_schema,
    preferred_format,
    resolve_schema,
    schema_at,
    show,
)

# Only consulted when no payload was found at all, and only on short answers.
_REFUSAL_TEXT = re.compile(
    r"^\W*(?:I'm sorry|I am sorry|Sorry)?[,.!\s]*(?:but\s+)?I\s+(?:can(?:no|')t|cannot|won't|will not|am not able to|'m not able to|am unable to|'m unable to)\s+(?:help|assist|comply|provide|do that|complete)",
    re.IGNORECASE,
)
_REFUSAL_MAX_CHARS = 600

_UNSET: Any = object()


@dataclass(frozen=True)
class OutputValidator:
    """Validates one agent output against ``schema``: the step an operator runs once per attempt.

    It never calls an agent and never decides about retries (that is policy.AttemptPolicy).

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
        # The model's own cross-field rules are checked first, like any semantic validator.
        declared = model_rules(self.model)
        if declared:
            object.__setattr__(self, "semantic_validators", (*declared, *self.semantic_validators))

    @property
    def payload_format(self) -> PayloadFormat:
        declared = preferred_format(self.model)
        if self.fmt is not None:
            return self.fmt
        return PayloadFormat.YAML if declared == PayloadFormat.YAML else PayloadFormat.AUTO

    @property
    def payload_label(self) -> str:
        """How prompts name the payload: YAML, or JSON (also for AUTO)."""
        return "YAML" if self.payload_format == PayloadFormat.YAML else "JSON"

    def validate_reply(self, reply: LLMReply) -> ValidationOutcome:
        """Validate a reply, its already-parsed output when the agent returned some."""
        if reply.structured_output is not None:
            return self.validate(reply.text, reply.finish_reason, data=reply.structured_output)
        return self.validate(reply.text, reply.finish_reason)

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
            return self._check(
                raw, data, (), PayloadFormat.JSON, reason, cut_off, truncated_payload=False
            )
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
        fmt: PayloadFormat,
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
        return f"{self.payload_label}: {describe_schema(schema_at(self.model, []), self.model)}"
