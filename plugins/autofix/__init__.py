"""autofix: run AI coding agents as Airflow tasks that tell real failures from noise."""

from __future__ import annotations

__version__ = "0.1.0"

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pathlib import Path

    from autofix.patterns.loader import PatternStore
    from autofix.result import ParseResult


def classify_output(
    exit_code: int | None,
    stderr: str | bytes,
    stdout: str | bytes = "",
    run_status: str | None = None,
    operation: str = "",
    patterns: str | Path | PatternStore | None = None,
) -> ParseResult:
    """Verdict on one plain command: exit code, stderr and stdout (see autofix.parser)."""
    from autofix.parser import ResponseParser  # lazy: keeps `import autofix` light

    return ResponseParser(patterns).parse(
        exit_code, stderr, stdout, run_status=run_status, operation=operation
    )
