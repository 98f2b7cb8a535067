"""The verification suite with the scripted agent (tests/verification_suite): every case, with
its ``verify=`` and without.

With ``verify=`` no false claim is reported as a success and no honest success is failed;
a case whose second attempt really does the work ends in success. Without ``verify=`` every
claim is believed: the false ones are reported as successes. That difference is what
``verify=`` adds (benchmarks/verification_scores.py prints the figures).
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from verification_suite.cases import CASES, FAMILIES, Case
from verification_suite.manifest import load
from verification_suite.score import run_case


def test_the_split_is_frozen_and_spans_every_family() -> None:
    split = load()  # raises when a case changed after the freeze
    assert len(CASES) >= 30
    assert len(split.held_out) >= 12
    assert {c.family for c in split.held_out} == set(FAMILIES)
    assert {c.family for c in split.tuned} == set(FAMILIES)
    honest = Counter(c.family for c in CASES)["honest"]
    assert len(CASES) / 4 <= honest <= len(CASES) / 2


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_with_verify_the_verdict_is_the_truth(case: Case, tmp_path: Path) -> None:
    outcome = run_case(case, tmp_path, verified=True)
    assert outcome.verdict in ("true_success", "caught"), (outcome.verdict, outcome.error)
    if case.done_at is None:
        assert outcome.failed_checks, "a false claim fails at least one check"
    else:
        assert outcome.success and outcome.attempts == case.done_at


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_without_verify_every_claim_is_believed(case: Case, tmp_path: Path) -> None:
    outcome = run_case(case, tmp_path, verified=False)
    assert outcome.success and outcome.attempts == 1
    assert outcome.verdict == ("true_success" if case.done_at == 1 else "false_success")
