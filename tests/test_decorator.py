"""``@task.coding_agent`` (autofix.decorators): TaskFlow DAGs under ``dag.test()`` with the
scripted agent (``agent="sim"``), imported directly and through Airflow's ``task`` namespace."""

from __future__ import annotations

from pathlib import Path

import pytest
from airflow_support import run_dag

from autofix.decorators.coding_agent import PARSE_RESULT_KEY
from autofix.operators.results import FAILED_RESULT_KEY, coerce_result

pytestmark = pytest.mark.airflow

HEADER = """
import json
from pathlib import Path

import pendulum
from pydantic import BaseModel, Field
from airflow.sdk import DAG, task

from autofix.decorators import coding_agent_task

class TestConfig(BaseModel):
    test_command: str = Field(min_length=1)
    frameworks: list[str] = Field(min_length=1)

SIM = {{"state_dir": {state_dir!r}}}
SEEN = Path({seen!r})
"""


@pytest.fixture
def dag_header(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("AUTOFIX__AUDIT__PATH", str(tmp_path / "audit.jsonl"))
    monkeypatch.setenv("AUTOFIX__VALIDATION__REPORT_DIR", str(tmp_path / "reports"))
    monkeypatch.setenv("AUTOFIX_HOME", str(tmp_path))
    return HEADER.format(state_dir=str(tmp_path / "sim-state"), seen=str(tmp_path / "seen.json"))


def _registered() -> bool:
    from airflow.sdk import task

    try:
        task.coding_agent  # noqa: B018 - the lookup is the check
    except AttributeError:
        return False
    return True


def test_the_function_returns_the_prompt_and_the_task_the_parse_result(
    dag_header: str, tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    outcome = run_dag(
        "deco_text",
        dag_header
        + """
@task
def project() -> str:
    return "sample_project"

@coding_agent_task(agent="sim", agent_options={**SIM, "scenario": "noise_success"})
def check(name: str, ds=None) -> str:
    return f"Run the tests of {name} ({'with' if ds else 'without'} a logical date)."

@task
def read(result: dict) -> None:
    SEEN.write_text(json.dumps(result))

with DAG("deco_text", schedule=None, start_date=pendulum.datetime(2025, 1, 1)) as dag:
    read(check(project()))
""",
    )
    assert outcome.state == "success", outcome.task_states
    value = outcome.xcoms["check"]
    result = coerce_result(value)
    assert result is not None and result.success
    assert value["cost_usd"] == pytest.approx(0.0213) and value["cost_source"] == "reported"
    # The downstream task got the ParseResult as plain JSON.
    seen = (tmp_path / "seen.json").read_text()
    assert '"status": "completed"' in seen and '"final_text": "All 5 tests pass.' in seen
    log = capfd.readouterr().out
    assert "Run the tests of sample_project" in log  # the prompt the function returned
    assert "autofix verdict: SUCCESS [check]" in log


def test_with_output_schema_the_task_returns_the_validated_answer(
    dag_header: str, tmp_path: Path
) -> None:
    outcome = run_dag(
        "deco_schema",
        dag_header
        + """
@coding_agent_task(agent="sim", output_schema=TestConfig, max_attempts=3,
                   agent_options={**SIM, "scenario": "structured_retry"})
def discover_tests() -> str:
    return "How are the tests of this project run?"

@task
def read(config: dict) -> None:
    SEEN.write_text(json.dumps(config))

with DAG("deco_schema", schedule=None, start_date=pendulum.datetime(2025, 1, 1)) as dag:
    read(discover_tests())
""",
    )
    assert outcome.state == "success", outcome.task_states
    answer = {"test_command": "pytest -q", "frameworks": ["pytest"]}
    assert outcome.xcoms["discover_tests"] == answer
    assert (
        tmp_path / "seen.json"
    ).read_text() == '{"test_command": "pytest -q", "frameworks": ["pytest"]}'
    whole = coerce_result(outcome.xcoms_by_key("discover_tests", PARSE_RESULT_KEY))
    assert whole is not None and whole.attempts == 2 and whole.data == answer


def test_a_function_that_returns_no_prompt_fails_at_once(dag_header: str) -> None:
    outcome = run_dag(
        "deco_no_prompt",
        dag_header
        + """
@coding_agent_task(agent="sim", retries=2, agent_options={**SIM, "scenario": "noise_success"})
def forgot() -> str:
    prompt = "Fix it."  # never returned

with DAG("deco_no_prompt", schedule=None, start_date=pendulum.datetime(2025, 1, 1)) as dag:
    forgot()
""",
    )
    assert outcome.task_states["forgot"] == "failed"
    assert outcome.try_numbers["forgot"] == 1  # permanent: no retry
    assert outcome.xcoms_by_key("forgot", FAILED_RESULT_KEY) is None  # the agent never ran


def test_prompt_is_not_an_argument_of_the_decorator() -> None:
    import pendulum
    from airflow.sdk import DAG

    from autofix.decorators import coding_agent_task

    @coding_agent_task(agent="sim", prompt="twice")
    def fix() -> str:
        return "Fix it."

    with (
        DAG("deco_prompt_arg", schedule=None, start_date=pendulum.datetime(2025, 1, 1)),
        pytest.raises(ValueError, match=r"returns the prompt; remove prompt="),
    ):
        fix()


@pytest.mark.skipif(not _registered(), reason="provider_info does not register coding_agent yet")
def test_task_coding_agent_is_the_registered_name(dag_header: str) -> None:
    from airflow.sdk import task

    from autofix.decorators import coding_agent_task

    assert task.coding_agent is coding_agent_task
    outcome = run_dag(
        "deco_registered",
        dag_header
        + """
@task.coding_agent(agent="sim", agent_options={**SIM, "scenario": "noise_success"})
def check() -> str:
    return "Run the tests."

with DAG("deco_registered", schedule=None, start_date=pendulum.datetime(2025, 1, 1)) as dag:
    check()
""",
    )
    assert outcome.state == "success", outcome.task_states
    assert outcome.xcoms["check"]["success"] is True
