"""DAGs for tests/test_celery_live.py, run by the Celery workers of scripts/up_celery.sh.

The scripted agent (agent="sim") plays tests/celery_dags/scenarios/; the stack's state dir
(AUTOFIX_CELERY_STATE) holds the budget config the test writes and the scenarios' counters.
"""

from __future__ import annotations

import os
from datetime import timedelta
from pathlib import Path

import pendulum
from airflow.sdk import DAG

from autofix.operators.wrapper import AIWrapperOperator

SCENARIOS = Path(__file__).resolve().parent / "scenarios"
STATE = Path(os.environ.get("AUTOFIX_CELERY_STATE", "/tmp/autofix-celery"))
BUDGET_CONFIG = STATE / "budget.yaml"
AGENT_TASKS = 6
START = pendulum.datetime(2025, 1, 1, tz="UTC")


def _agent(task_id: str, scenario: str, **kwargs: object) -> AIWrapperOperator:
    return AIWrapperOperator(
        task_id=task_id,
        agent="sim",
        prompt="Run the tests and report.",
        agent_options={"scenario": str(SCENARIOS / scenario), "state_dir": str(STATE / "sim")},
        retries=1,
        retry_delay=timedelta(seconds=1),
        **kwargs,  # type: ignore[arg-type]
    )


# Parallel agent calls: with two workers of two slots each, both get some.
with DAG("celery_spread", schedule=None, start_date=START, max_active_tasks=8, catchup=False):
    for index in range(AGENT_TASKS):
        _agent(f"agent_{index}", "slow_success.yaml")

# The same calls under a daily budget (the test writes BUDGET_CONFIG before triggering).
with DAG("celery_budget", schedule=None, start_date=START, max_active_tasks=8, catchup=False):
    for index in range(AGENT_TASKS):
        _agent(f"agent_{index}", "slow_success.yaml", config_path=str(BUDGET_CONFIG))

# One budgeted call that hangs until its worker is killed; its retry runs on the other worker.
with DAG("celery_kill", schedule=None, start_date=START, catchup=False):
    _agent("agent_hang", "hang_then_succeed.yaml", config_path=str(BUDGET_CONFIG), timeout=300)
