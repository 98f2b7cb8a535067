"""What a check found: ``CheckIssue`` and ``CheckReport``, the known checks, and error counts."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from autofix.redact import redact

Severity = Literal["error", "warning", "note"]

PYTHON_CHECKS: tuple[str, ...] = ("ruff", "mypy", "pytest")
JS_CHECKS: tuple[str, ...] = ("eslint", "tsc", "npm test")
KNOWN_CHECKS: tuple[str, ...] = PYTHON_CHECKS + JS_CHECKS

# Issue codes for problems with the tool itself rather than with the code it checks.
TOOL_MISSING = "tool-missing"
TOOL_FAILED = "tool-failed"
TOOL_TIMEOUT = "timeout"

MAX_MESSAGE_CHARS = 300


class CheckIssue(BaseModel):
    """One finding of one tool, located in the project when the tool says where."""

    model_config = ConfigDict(frozen=True)

    tool: str
    path: str = ""  # relative to the project, POSIX separators; "" when not tied to a file
    line: int | None = None  # 1-based
    code: str = ""
    message: str = ""
    severity: Severity = "error"


class CheckReport(BaseModel):
    """The result of running one check tool once."""

    model_config = ConfigDict(frozen=True)

    tool: str
    command: list[str]
    exit_code: int | None  # None: the tool did not run to completion (missing, timed out)
    issues: list[CheckIssue] = Field(default_factory=list)
    duration_s: float = 0.0
    ok: bool
    raw_tail: str = ""
    error: str | None = None  # why the tool itself could not give a verdict

    @property
    def error_count(self) -> int:
        return sum(1 for issue in self.issues if issue.severity == "error")


def one_line(text: str, limit: int = MAX_MESSAGE_CHARS) -> str:
    """An issue message: one line, bounded, redacted (parsers and fail-safe issues alike)."""
    text = " ".join(text.split())
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    return redact(text)


def error_count(reports: Iterable[CheckReport]) -> int:
    """Errors across reports; warnings and notes do not count."""
    return sum(report.error_count for report in reports)


def counts_by_tool(reports: Iterable[CheckReport]) -> dict[str, int]:
    return {report.tool: report.error_count for report in reports}
