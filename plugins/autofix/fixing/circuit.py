"""Circuit breaker for the fixing loop: stop when the agent stops making progress.

An iteration is productive only when it made a new commit AND the error count dropped.
After ``patience`` (default 2) unproductive iterations in a row the breaker trips. Pure
logic over iteration records, so the DAG can keep the records in XCom and ask again.

Core module: no Airflow imports.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field

DEFAULT_PATIENCE = 2
DEFAULT_MAX_ITERATIONS = 5


class IterationRecord(BaseModel):
    """What one fix iteration did: the errors before and after, and HEAD before and after."""

    model_config = ConfigDict(frozen=True)

    iteration: int = Field(ge=1)
    errors_before: int = Field(ge=0)
    errors_after: int = Field(ge=0)
    head_before: str
    head_after: str

    @property
    def new_commit(self) -> bool:
        return self.head_after != self.head_before

    @property
    def improved(self) -> bool:
        return self.errors_after < self.errors_before

    @property
    def productive(self) -> bool:
        return self.new_commit and self.improved

    def why_unproductive(self) -> str:
        """Empty for a productive iteration, else what was missing, for the stop message."""
        reasons = []
        if not self.new_commit:
            reasons.append("no new commit")
        if not self.improved:
            reasons.append(f"errors {self.errors_before} → {self.errors_after}")
        return ", ".join(reasons)


class LoopState(StrEnum):
    CLEAN = "clean"  # no errors left: done, successfully
    CONTINUE = "continue"  # run another fix iteration
    TRIPPED = "tripped"  # no progress for `patience` iterations in a row
    EXHAUSTED = "exhausted"  # max_iterations reached with errors left


class Verdict(BaseModel):
    model_config = ConfigDict(frozen=True)

    state: LoopState
    reason: str
    unproductive_streak: int = 0

    @property
    def stop(self) -> bool:
        return self.state is not LoopState.CONTINUE


def unproductive_streak(records: Sequence[IterationRecord]) -> int:
    """How many of the latest iterations in a row made no progress."""
    streak = 0
    for record in reversed(records):
        if record.productive:
            break
        streak += 1
    return streak


def evaluate(
    records: Sequence[IterationRecord],
    *,
    initial_errors: int | None = None,
    max_iterations: int = DEFAULT_MAX_ITERATIONS,
    patience: int = DEFAULT_PATIENCE,
) -> Verdict:
    """Decide whether the loop goes on, given the iterations so far (oldest first).

    ``initial_errors`` is the error count of the first check, used before any iteration.
    Order of precedence: clean, then tripped, then exhausted.
    """
    if patience < 1 or max_iterations < 0:
        raise ValueError("patience must be >= 1 and max_iterations >= 0")
    current = records[-1].errors_after if records else initial_errors
    if current == 0:
        return Verdict(state=LoopState.CLEAN, reason="all checks pass")
    streak = unproductive_streak(records)
    if streak >= patience:
        details = "; ".join(
            f"iteration {r.iteration}: {r.why_unproductive()}" for r in records[-patience:]
        )
        return Verdict(
            state=LoopState.TRIPPED,
            reason=f"stopped after {streak} iterations in a row without progress ({details})",
            unproductive_streak=streak,
        )
    if len(records) >= max_iterations:
        return Verdict(
            state=LoopState.EXHAUSTED,
            reason=f"stopped after max_iterations={max_iterations} with {current} error(s) left",
            unproductive_streak=streak,
        )
    left = "unknown number of" if current is None else str(current)
    return Verdict(
        state=LoopState.CONTINUE,
        reason=f"{left} error(s) left; iteration {len(records) + 1} of {max_iterations}",
        unproductive_streak=streak,
    )
