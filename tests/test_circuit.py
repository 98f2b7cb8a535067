"""circuit: the fixing loop's stop rules."""

from __future__ import annotations

import pytest

from autofix.fixing.circuit import IterationRecord, LoopState, evaluate, unproductive_streak


def rec(n: int, before: int, after: int, commit: bool = True) -> IterationRecord:
    return IterationRecord(
        iteration=n,
        errors_before=before,
        errors_after=after,
        head_before=f"h{n - 1}",
        head_after=f"h{n}" if commit else f"h{n - 1}",
    )


def test_no_iterations_yet() -> None:
    assert evaluate([], initial_errors=5).state is LoopState.CONTINUE
    assert evaluate([], initial_errors=0).state is LoopState.CLEAN
    assert evaluate([]).state is LoopState.CONTINUE  # unknown count: check first


def test_productive_iterations_continue_until_clean() -> None:
    records = [rec(1, 5, 3), rec(2, 3, 1)]
    verdict = evaluate(records)
    assert (verdict.state, verdict.stop) == (LoopState.CONTINUE, False)
    assert verdict.reason == "1 error(s) left; iteration 3 of 5"
    assert evaluate([*records, rec(3, 1, 0)]).state is LoopState.CLEAN


def test_one_unproductive_iteration_is_tolerated() -> None:
    assert evaluate([rec(1, 5, 5, commit=False)]).state is LoopState.CONTINUE
    assert evaluate([rec(1, 5, 3), rec(2, 3, 3)]).state is LoopState.CONTINUE


@pytest.mark.parametrize(
    ("second", "why"),
    [
        (rec(2, 4, 4, commit=False), "iteration 2: no new commit, errors 4 → 4"),
        (rec(2, 4, 2, commit=False), "iteration 2: no new commit"),  # errors dropped, no commit
        (rec(2, 4, 6, commit=True), "iteration 2: errors 4 → 6"),  # committed, got worse
    ],
)
def test_two_unproductive_in_a_row_trip(second: IterationRecord, why: str) -> None:
    records = [rec(1, 5, 4, commit=False), second]
    verdict = evaluate(records)
    assert verdict.state is LoopState.TRIPPED and verdict.stop
    assert verdict.unproductive_streak == 2
    assert verdict.reason.startswith("stopped after 2 iterations in a row without progress")
    assert why in verdict.reason


def test_progress_resets_the_streak() -> None:
    records = [rec(1, 9, 9, False), rec(2, 9, 5), rec(3, 5, 5, False)]
    assert unproductive_streak(records) == 1
    assert evaluate(records).state is LoopState.CONTINUE


def test_clean_wins_over_tripped() -> None:
    # errors dropped to zero without a commit (e.g. a flaky test): clean, nothing left to fix
    assert evaluate([rec(1, 3, 3, False), rec(2, 3, 0, False)]).state is LoopState.CLEAN


def test_max_iterations_exhausted() -> None:
    records = [rec(n, 10 - n, 9 - n) for n in range(1, 6)]
    verdict = evaluate(records, max_iterations=5)
    assert verdict.state is LoopState.EXHAUSTED
    assert verdict.reason == "stopped after max_iterations=5 with 4 error(s) left"


def test_patience_is_configurable_and_validated() -> None:
    records = [rec(1, 5, 5, False)]
    assert evaluate(records, patience=1).state is LoopState.TRIPPED
    with pytest.raises(ValueError):
        evaluate(records, patience=0)


def test_records_round_trip_as_json() -> None:
    record = rec(1, 2, 1)
    assert IterationRecord.model_validate_json(record.model_dump_json()) == record
    with pytest.raises(ValueError):
        IterationRecord(iteration=0, errors_before=0, errors_after=0, head_before="", head_after="")
