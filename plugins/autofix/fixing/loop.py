"""The fix loop's state: check_0's snapshot before the fix, and what the fix task's verified
attempts (``autofix.verify``) say after it."""

from __future__ import annotations

import time
from collections.abc import Sequence
from enum import StrEnum
from pathlib import Path

from pydantic import BaseModel, Field

from autofix import gitops
from autofix.checks.issue_groups import render_issues
from autofix.checks.model import CheckReport, counts_by_tool, error_count
from autofix.checks.run import run_checks
from autofix.errors import FixingError, GitError
from autofix.result import FailureKind, ParseResult
from autofix.verification import CheckKind, Verification
from autofix.verify.checks import Check, ExpectChanges, ToolCheck
from autofix.verify.verifier import stuck


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


class Baseline(BaseModel):
    """check_0: the checks the fix must pass, where they stood, and the fix's attempt budget."""

    checks: list[str]
    max_iterations: int = Field(ge=1)
    snapshot: CheckSnapshot

    @property
    def clean(self) -> bool:
        return self.snapshot.errors == 0


def current(baseline: Baseline, project: str | Path, timeout: float) -> Baseline:
    """The baseline as the tree is now: a fresh snapshot once HEAD moved (an earlier try of
    the fix committed), so a retry starts from what is left."""
    try:
        head = gitops.head(Path(project))
    except GitError as exc:
        raise FixingError(str(exc)) from exc
    if head == baseline.snapshot.head:
        return baseline
    return baseline.model_copy(update={"snapshot": snapshot(project, baseline.checks, timeout)})


def fix_checks(baseline: Baseline, timeout: float) -> tuple[Check, ...]:
    """What each fix attempt must pass: every check tool, and a new commit of its own."""
    tools: list[Check] = [ToolCheck(name=name, timeout=timeout) for name in baseline.checks]
    return (*tools, ExpectChanges(name="new commit", commit=True, since="attempt"))


def tool_counts(counts: dict[str, int]) -> str:
    """``ruff 3, mypy 1`` (``-`` for none): errors by check tool, as people read them."""
    return ", ".join(f"{tool} {n}" for tool, n in counts.items()) or "-"


class LoopState(StrEnum):
    CLEAN = "clean"  # no errors left: done, successfully
    TRIPPED = "tripped"  # two attempts in a row failed with the same errors: no progress
    EXHAUSTED = "exhausted"  # max_iterations verified attempts used, errors left
    FAILED = "failed"  # the fix did not finish (the agent failed, or the task did not run)


class LoopOutcome(BaseModel):
    state: LoopState
    reason: str
    errors_after: int | None = None
    by_tool_after: dict[str, int] = Field(default_factory=dict)
    iterations: int = 0  # verified attempts of the fix task's last try


def _after(verification: Verification) -> tuple[int, dict[str, int]]:
    """The check tools' error counts after one attempt (expect_changes is no tool error)."""
    by_tool = {
        check.name: 0 if check.passed else max(check.error_count, 1)
        for check in verification.checks
        if check.kind is CheckKind.TOOL
    }
    return sum(by_tool.values()), by_tool


def outcome_of(baseline: Baseline, fix: ParseResult | None) -> LoopOutcome:
    """The loop's outcome from check_0 and the fix task's result (None: it did not run)."""
    if fix is None or not fix.verification:
        if fix is None and baseline.clean:
            return LoopOutcome(state=LoopState.CLEAN, reason="all checks pass", errors_after=0)
        reason = fix.error_message if fix is not None else "fix did not finish; see its log"
        return LoopOutcome(state=LoopState.FAILED, reason=reason)
    history = fix.verification
    errors, by_tool = _after(history[-1])
    done = {"errors_after": errors, "by_tool_after": by_tool, "iterations": len(history)}
    if fix.success:
        return LoopOutcome(state=LoopState.CLEAN, reason="all checks pass", **done)
    if fix.failure_kind is not FailureKind.VERIFICATION_FAILED:
        return LoopOutcome(state=LoopState.FAILED, reason=fix.error_message, **done)
    last = history[-1]
    others = [c.errors[0] for c in last.failed if c.kind is not CheckKind.TOOL and c.errors]
    left = "; ".join([f"{errors} error(s) left ({tool_counts(by_tool)})", *others])
    if stuck(history):
        reason = (
            f"stopped without progress: attempts {history[-2].attempt} and "
            f"{last.attempt} failed with the same errors; {left}"
        )
        return LoopOutcome(state=LoopState.TRIPPED, reason=reason, **done)
    reason = f"stopped after max_iterations={baseline.max_iterations} with {left}"
    return LoopOutcome(state=LoopState.EXHAUSTED, reason=reason, **done)


def commits_since(project: str | Path, sha: str) -> list[gitops.Commit]:
    """Commits since ``sha``; none when git cannot tell, so a summary never fails on it."""
    try:
        return gitops.commits_between(Path(project), sha)
    except GitError:
        return []
