"""What the ``verify=`` checks found after one attempt: ``CheckOutcome`` and ``Verification``.

Plain values that travel in the ``ParseResult`` (XCom) and the audit; the checks themselves
run in :mod:`autofix.verify`.
"""

from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field, field_validator

from autofix.redact import redact_stored

MAX_CHECK_ERRORS = 20  # per check: what is fed back and stored, most urgent first
MAX_ERROR_CHARS = 300
MAX_FEEDBACK_CHARS = 6000


class CheckKind(StrEnum):
    COMMAND = "command"  # a command in the task's working directory; its exit code decides
    TOOL = "tool"  # a known check tool run with its structured output (ruff, mypy, pytest, ...)
    EXPECT_CHANGES = "expect_changes"  # a new commit or a non-empty diff
    EXPECT_FILES = "expect_files"  # paths or globs that must exist (non-empty, valid JSON/YAML)
    CALLABLE = "callable"  # a Python function (ParseResult, context) -> None | list[str]


def _bounded(text: str, limit: int) -> str:
    text = redact_stored(text)
    return text if len(text) <= limit else text[: limit - 1] + "…"


class CheckOutcome(BaseModel):
    """One check after one attempt. ``errors`` are ranked, redacted and bounded."""

    model_config = ConfigDict(frozen=True)

    name: str
    kind: CheckKind
    passed: bool
    errors: list[str] = Field(default_factory=list)
    error_count: int = 0  # all the check found; ``errors`` holds the first MAX_CHECK_ERRORS
    exit_code: int | None = None
    timed_out: bool = False
    duration_s: float = 0.0

    @field_validator("errors")
    @classmethod
    def _bound_errors(cls, value: list[str]) -> list[str]:
        return [_bounded(line, MAX_ERROR_CHARS) for line in value[:MAX_CHECK_ERRORS]]

    @field_validator("name")
    @classmethod
    def _bound_name(cls, value: str) -> str:
        return _bounded(value, 200)

    def line(self) -> str:
        """``pytest -q: failed (exit 1, 3 errors)`` for the task log."""
        if self.passed:
            return f"{self.name}: passed"
        how = "timed out" if self.timed_out else f"exit {self.exit_code}"
        parts = [how] if self.exit_code is not None or self.timed_out else []
        parts.append(f"{self.error_count or len(self.errors)} error(s)")
        return f"{self.name}: FAILED ({', '.join(parts)})"


class Verification(BaseModel):
    """Every check after one attempt that claimed success, and what was sent back."""

    model_config = ConfigDict(frozen=True)

    attempt: int = Field(ge=1)
    passed: bool
    checks: list[CheckOutcome] = Field(default_factory=list)
    feedback: str = ""  # the prompt the next attempt got ("" when none followed)

    @field_validator("feedback")
    @classmethod
    def _bound_feedback(cls, value: str) -> str:
        return _bounded(value, MAX_FEEDBACK_CHARS)

    @property
    def failed(self) -> list[CheckOutcome]:
        return [check for check in self.checks if not check.passed]

    def error_key(self) -> frozenset[tuple[str, tuple[str, ...]]]:
        """What failed, for the identical-error early stop: each failed check and its errors."""
        return frozenset((check.name, tuple(check.errors)) for check in self.failed)

    def summary(self) -> str:
        if self.passed:
            return f"{len(self.checks)} check(s) passed"
        return "; ".join(check.line() for check in self.failed)
