"""The check/fix loop's state: a check snapshot per iteration, advanced through the circuit breaker."""

from __future__ import annotations

import time
from collections.abc import Sequence
from pathlib import Path

from pydantic import BaseModel, Field

from autofix import gitops
from autofix.checks.issue_groups import render_issues
from autofix.checks.model import CheckReport, counts_by_tool, error_count
from autofix.checks.run import run_checks
from autofix.errors import FixingError, GitError
from autofix.fixing.circuit import DEFAULT_PATIENCE, IterationRecord, LoopState, Verdict, evaluate


class CheckSnapshot(BaseModel):
    """The checks' verdict at one point: counts, the grouped issues for the prompt, HEAD."""

    errors: int
    by_tool: dict[str, int]
    rendered: str
    head: str
    dirty: list[str] = Field(default_factory=list)
    tool_problems: list[str] = Field(default_factory=list)  # tools that gave no verdict
    duration_s: float = 0.0


def snapshot(project: str | Path, checks: Sequence[str], timeout: float) -> CheckSnapshot:
    """Run the real check tools in ``project`` and summarise them."""
    top = Path(project)
    started = time.monotonic()
    reports: list[CheckReport] = run_checks(top, checks, timeout)
    try:
        head = gitops.head(top)
        dirty = gitops.dirty_paths(top)
    except GitError as exc:
        raise FixingError(str(exc)) from exc
    return CheckSnapshot(
        errors=error_count(reports),
        by_tool=counts_by_tool(reports),
        rendered=render_issues(reports),
        head=head,
        dirty=dirty,
        tool_problems=[report.error for report in reports if report.error],
        duration_s=round(time.monotonic() - started, 3),
    )


class LoopStatus(BaseModel):
    """Where the loop stands after check ``iteration`` (0 = before any fix)."""

    iteration: int = Field(ge=0)
    max_iterations: int = Field(ge=1)
    checks: list[str]
    initial_errors: int
    initial_by_tool: dict[str, int]
    records: list[IterationRecord] = Field(default_factory=list)
    verdict: Verdict
    snapshot: CheckSnapshot

    @property
    def state(self) -> LoopState:
        return self.verdict.state


def baseline(current: CheckSnapshot, checks: Sequence[str], max_iterations: int) -> LoopStatus:
    verdict = evaluate([], initial_errors=current.errors, max_iterations=max_iterations)
    return LoopStatus(
        iteration=0,
        max_iterations=max_iterations,
        checks=list(checks),
        initial_errors=current.errors,
        initial_by_tool=current.by_tool,
        verdict=verdict,
        snapshot=current,
    )


def advance(
    previous: LoopStatus, current: CheckSnapshot, patience: int = DEFAULT_PATIENCE
) -> LoopStatus:
    """Record the fix between ``previous`` and ``current`` and ask the circuit breaker."""
    record = IterationRecord(
        iteration=previous.iteration + 1,
        errors_before=previous.snapshot.errors,
        errors_after=current.errors,
        head_before=previous.snapshot.head,
        head_after=current.head,
    )
    records = [*previous.records, record]
    verdict = evaluate(
        records,
        initial_errors=previous.initial_errors,
        max_iterations=previous.max_iterations,
        patience=patience,
    )
    return previous.model_copy(
        update={
            "iteration": record.iteration,
            "records": records,
            "verdict": verdict,
            "snapshot": current,
        }
    )


def fix_skip_reason(previous: LoopStatus | None, iteration: int) -> str | None:
    """Why fix ``iteration`` does not run (None: it runs)."""
    if previous is None:
        return f"check_{iteration - 1} has no result (it did not run)"
    if previous.iteration != iteration - 1:
        return (
            f"check_{iteration - 1} is at iteration {previous.iteration}, expected {iteration - 1}"
        )
    if previous.verdict.stop:
        return f"loop finished: {previous.verdict.state.value}: {previous.verdict.reason}"
    return None


def commits_since(project: str | Path, sha: str) -> list[gitops.Commit]:
    """Commits since ``sha``; none when git cannot tell, so a summary never fails on it."""
    try:
        return gitops.commits_between(Path(project), sha)
    except GitError:
        return []
