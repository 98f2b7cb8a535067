"""The real Claude Code, Codex and Gemini CLIs through AIWrapperOperator under ``dag.test()``.

Every scenario × CLI where the API has it (variant 1 of tests/agent_apis/scenarios.py): the
real binary talks to a scripted loopback API, and the test checks what autofix decided (success,
failure kind, retry class) and what Airflow did with it: success; an ordinary exception leaving
the task ``up_for_retry`` with the output's delay as its ``retry_delay_override``; retry with
feedback inside the task (``output_schema``) before ``AgentPermanentError``; or
``AgentPermanentError`` at once (one line, no traceback, no retry). Two more cases check that the next try really waits the delay.

The matrix runs in worker processes, one ``dag.test()`` each (tests/agents/e2e.py says why);
it must stay under 5 minutes. Skipped, with the reason, when ``make agent-clis`` has not
installed the pinned CLIs.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from agent_apis.clis import missing_reason
from agent_apis.scenarios import Case
from agents.e2e import MAX_RETRY_WAIT_S, is_delay_case, matrix_cases, run_matrix
from agents.e2e_report import (
    delay_kept,
    expected,
    first_result,
    markdown_matrix,
    observed,
    retry_delay,
    waited,
)

MISSING = missing_reason()
WORKERS = int(os.environ.get("AUTOFIX_E2E_WORKERS", "4"))
MATRIX_BUDGET_S = 300.0

pytestmark = [
    pytest.mark.airflow,
    pytest.mark.e2e,  # its worker processes take every core: `make test` runs it alone
    pytest.mark.timeout(900),  # the matrix itself is held to MATRIX_BUDGET_S below
    pytest.mark.skipif(MISSING is not None, reason=MISSING or ""),
]
CASES = matrix_cases()


@pytest.fixture(scope="module")
def matrix(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    from airflow_support import airflow_home, ensure_db

    ensure_db()
    merged = run_matrix(
        CASES, airflow_home() / "airflow.db", WORKERS, tmp_path_factory.mktemp("e2e")
    )
    report = os.environ.get("AUTOFIX_E2E_REPORT")
    if report:  # docs/e2e-matrix.md is written from this (and the raw results beside it)
        Path(report).write_text(markdown_matrix(merged) + "\n")
        Path(report).with_suffix(".json").write_text(json.dumps(merged, indent=1))
    return merged


def _result(matrix: dict[str, Any], case: Case) -> dict[str, Any]:
    result = matrix["results"].get(case.key)
    assert result is not None, f"{case.key}: no result; workers: {matrix['workers']}"
    return result  # type: ignore[no-any-return]


@pytest.mark.parametrize("case", [c for c in CASES if not is_delay_case(c)], ids=lambda c: c.key)
def test_scenario_through_the_operator(matrix: dict[str, Any], case: Case) -> None:
    result = _result(matrix, case)
    parsed = first_result(result)
    assert observed(result) == expected(case), parsed.get("error_message")
    if observed(result).action == "retry":
        # Airflow stored the output's wait (capped by agents.max_retry_wait_seconds) as the
        # retry's delay, or nothing when the output gave none.
        wait = parsed.get("retry_after_s")
        want = None if wait is None else min(float(wait), MAX_RETRY_WAIT_S)
        assert retry_delay(result) == (None if want is None else pytest.approx(want, abs=0.01))


@pytest.mark.parametrize("case", [c for c in CASES if is_delay_case(c)], ids=lambda c: c.key)
def test_next_try_waits_the_delay_from_the_output(matrix: dict[str, Any], case: Case) -> None:
    result = _result(matrix, case)
    assert delay_kept(result), (retry_delay(result), waited(result), result["tries"])


def test_matrix_runs_in_budget(matrix: dict[str, Any]) -> None:
    assert not [w for w in matrix["workers"].values() if w.get("errors")], matrix["workers"]
    assert matrix["wall_s"] < MATRIX_BUDGET_S, markdown_matrix(matrix)
