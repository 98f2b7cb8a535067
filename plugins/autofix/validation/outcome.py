"""The verdict on one output (ValidationOutcome), and its round trip through ParseResult."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from autofix.errors import PayloadError
from autofix.result import (
    KIND_BY_STATUS,
    RETRY_CLASS_BY_STATUS,
    BlockSource,
    ErrorBlock,
    FieldError,
    FinishReason,
    ParseResult,
    Status,
    format_error_message,
)
from autofix.validation.extract import PayloadFormat
from autofix.validation.repair import parse_payload

ErrorKey = tuple[str, str]


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
    fmt: PayloadFormat | None = None  # what the payload was read as

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
                op, [f"call {attempt}/{attempts}: {self.summary()}"]
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
