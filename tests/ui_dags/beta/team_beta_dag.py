"""Team beta's DAG for the live view tests (tests/test_ui_browser.py): one agent task, the
scripted agent's structured retry (an invalid first answer, then a valid one after feedback)."""

from __future__ import annotations

import os

import pendulum
from airflow.sdk import DAG
from pydantic import BaseModel, Field

from autofix.decorators import coding_agent_task


class TestConfig(BaseModel):
    test_command: str = Field(min_length=1)
    frameworks: list[str] = Field(min_length=1)


STATE = os.path.join(os.environ.get("AUTOFIX_HOME", "/tmp"), "sim-state-beta")


@coding_agent_task(
    agent="sim",
    output_schema=TestConfig,
    max_attempts=3,
    agent_options={"state_dir": STATE, "scenario": "structured_retry"},
)
def discover_tests() -> str:
    return "How are the tests of this project run?"


with DAG(
    "team_beta_dag",
    schedule=None,
    start_date=pendulum.datetime(2025, 1, 1, tz="UTC"),
    catchup=False,
):
    discover_tests()
