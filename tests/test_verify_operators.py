"""verify= on the operator and the decorator, in a real SQLite Airflow (``dag.test()``) with
the scripted agent: the checks' results of every attempt in the XCom and the audit file."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from airflow_support import run_dag

from autofix.decorators.coding_agent import PARSE_RESULT_KEY
from autofix.errors import VerifyConfigError
from autofix.operators.results import FAILED_RESULT_KEY, coerce_result
from autofix.operators.wrapper import AIWrapperOperator

pytestmark = pytest.mark.airflow

SCENARIO = """name: claims_first
format: claude
steps:
  - attempt: 1
    text: "Fixed it and committed."
  - files:
      - {path: NOTES.md, content: "fixed\\n"}
    git_commit: "Write NOTES.md"
    text: "Wrote NOTES.md and committed it."
"""


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    monkeypatch.setenv("AUTOFIX__AUDIT__PATH", str(tmp_path / "audit.jsonl"))
    monkeypatch.setenv("AUTOFIX_HOME", str(tmp_path))
    repo = tmp_path / "repo"
    repo.mkdir()
    for args in (["init", "-q"], ["config", "user.email", "t@e.com"], ["config", "user.name", "t"]):
        subprocess.run(["git", "-C", str(repo), *args], check=True)
    (repo / "README.md").write_text("x\n")
    subprocess.run(["git", "-C", str(repo), "add", "-A"], check=True)
    subprocess.run(["git", "-C", str(repo), "commit", "-qm", "init"], check=True)
    scenario = tmp_path / "claims_first.yaml"
    scenario.write_text(SCENARIO)
    return {
        "repo": str(repo),
        "scenario": str(scenario),
        "state": str(tmp_path / "sim-state"),
        "audit": str(tmp_path / "audit.jsonl"),
    }


def _audit(path: str) -> list[dict[str, object]]:
    return [json.loads(line) for line in Path(path).read_text().splitlines() if line.strip()]


def test_a_failed_check_is_sent_back_and_the_second_attempt_succeeds(
    project: dict[str, str], capfd: pytest.CaptureFixture[str]
) -> None:
    outcome = run_dag(
        "verify_operator",
        f"""
import pendulum
from airflow.sdk import DAG
from autofix.operators.wrapper import AIWrapperOperator

with DAG("verify_operator", schedule=None, start_date=pendulum.datetime(2025, 1, 1)) as dag:
    AIWrapperOperator(
        task_id="fix",
        agent="sim",
        prompt="Write NOTES.md and commit it.",
        cwd={project["repo"]!r},
        agent_options={{"scenario": {project["scenario"]!r}, "state_dir": {project["state"]!r}}},
        verify=["expect_changes", {{"expect_files": "NOTES.md", "non_empty": True}}],
    )
""",
    )
    assert outcome.state == "success", outcome.task_states
    result = coerce_result(outcome.xcoms["fix"])
    assert result is not None and result.success and result.attempts == 2
    first, second = result.verification
    assert [c.passed for c in first.checks] == [False, False]
    assert [c.passed for c in second.checks] == [True, True]
    records = [r for r in _audit(project["audit"]) if "envelope" in r]
    verifications = [r["result"]["verification"] for r in records]  # type: ignore[index]
    assert [v[0]["passed"] for v in verifications] == [False, True]
    log = capfd.readouterr().out
    assert "verification after attempt 1: FAILED" in log
    assert "expect_changes: FAILED" in log
    assert "sent back to the agent (resumed session)" in log
    assert "NOTES.md: no such file" in log  # what was sent back, in the log


def test_the_decorator_takes_verify_and_exhaustion_fails_the_task_at_once(
    project: dict[str, str], capfd: pytest.CaptureFixture[str]
) -> None:
    outcome = run_dag(
        "verify_decorator",
        f"""
import pendulum
from airflow.sdk import DAG
from autofix.decorators import coding_agent_task

@coding_agent_task(
    agent="sim",
    cwd={project["repo"]!r},
    max_attempts=2,
    retries=3,
    agent_options={{"scenario": "noise_success", "state_dir": {project["state"]!r}}},
    verify=[{{"command": "test -f DONE", "name": "done file"}}],
)
def check() -> str:
    return "Run the tests and write DONE."

with DAG("verify_decorator", schedule=None, start_date=pendulum.datetime(2025, 1, 1)) as dag:
    check()
""",
    )
    assert outcome.task_states["check"] == "failed"
    assert outcome.try_numbers["check"] == 1  # invalid output: no Airflow retry
    failed = coerce_result(outcome.xcoms_by_key("check", FAILED_RESULT_KEY))
    assert failed is not None and failed.failure_kind == "verification_failed"
    assert [v.passed for v in failed.verification] == [False, False]
    pushed = coerce_result(outcome.xcoms_by_key("check", PARSE_RESULT_KEY))
    assert pushed is not None and len(pushed.verification) == 2
    log = capfd.readouterr().out
    assert "FAILED (verification failed)" in log
    assert "done file: FAILED (exit 1" in log


def test_a_bad_verify_item_fails_when_the_dag_is_parsed() -> None:
    with pytest.raises(VerifyConfigError, match="is none of"):
        AIWrapperOperator(task_id="t", agent="sim", prompt="p", verify=[3.5])


def test_the_retry_group_refuses_verify_and_says_what_to_use() -> None:
    from autofix.operators.retry_group import retry_with_feedback

    with pytest.raises(VerifyConfigError, match="use one AIWrapperOperator with verify="):
        retry_with_feedback("g", prompt="p", output_schema="x:Y", agent="sim", verify=["true"])
