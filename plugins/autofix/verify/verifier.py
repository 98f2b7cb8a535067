"""The checks of one task, run after each attempt that claims success, and the prompt that
sends their errors back to the agent."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from autofix.parser import ResponseParser
from autofix.result import ParseResult
from autofix.verification import MAX_FEEDBACK_CHARS, Verification
from autofix.verify.checks import Check, ExpectChanges
from autofix.verify.run import CheckInput, TreeState, run_one, tree_state


class Verifier:
    """``begin()`` when the task starts, ``before_attempt()`` before each call, then
    ``verify(result, attempt)`` after a call that claimed success."""

    def __init__(
        self,
        checks: Sequence[Check],
        cwd: str | Path | None,
        context: Any = None,
        parser: ResponseParser | None = None,
    ) -> None:
        self.checks = tuple(checks)
        self.parser = parser or ResponseParser()
        self.cwd = Path(cwd or ".").resolve()
        self.context = context
        self._task_start: TreeState | None = None
        self._attempt_start: TreeState | None = None
        self._reads_tree = any(isinstance(check, ExpectChanges) for check in self.checks)

    def begin(self) -> None:
        if self._reads_tree:
            self._task_start = self._attempt_start = tree_state(self.cwd)

    def before_attempt(self) -> None:
        if self._reads_tree and any(
            isinstance(c, ExpectChanges) and c.since == "attempt" for c in self.checks
        ):
            self._attempt_start = tree_state(self.cwd)

    def verify(self, result: ParseResult, attempt: int) -> Verification:
        given = CheckInput(
            self.cwd, result, self.context, self._task_start, self._attempt_start, self.parser
        )
        outcomes = [run_one(check, given) for check in self.checks]
        return Verification(
            attempt=attempt, passed=all(o.passed for o in outcomes), checks=outcomes
        )


def feedback_text(verification: Verification) -> str:
    """Each failed check with its errors, most urgent first, bounded: what is sent back."""
    failed = verification.failed
    lines = [
        f"You reported the task as done, but {len(failed)} of {len(verification.checks)} "
        "check(s) run on your work failed:",
    ]
    for check in failed:
        lines += ["", f"## {check.line()}"]
        lines += [f"- {error}" for error in check.errors]
        if check.error_count > len(check.errors):
            lines.append(f"- … {check.error_count - len(check.errors)} more")
    lines += [
        "",
        "Fix what these checks report (fix the work, not the checks), then answer again. "
        "The checks run again after you.",
    ]
    feedback = "\n".join(lines)
    if len(feedback) > MAX_FEEDBACK_CHARS:
        feedback = feedback[: MAX_FEEDBACK_CHARS - 60] + "\n… (cut; the checks run again after you)"
    return feedback


def retry_prompt(feedback: str, original_prompt: str, *, resumed: bool) -> str:
    """A resumed session has the task already; a fresh one gets it again first."""
    return feedback if resumed else f"{original_prompt}\n\n---\n{feedback}"


def stuck(history: Sequence[Verification]) -> bool:
    """The last two verifications failed with the same checks and the same errors."""
    if len(history) < 2:
        return False
    last, previous = history[-1], history[-2]
    return not last.passed and not previous.passed and last.error_key() == previous.error_key()
