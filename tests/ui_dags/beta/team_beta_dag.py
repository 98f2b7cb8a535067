"""Team beta's DAG for the access tests (tests/test_ui_access_live.py): one task."""

from __future__ import annotations

import pendulum
from airflow.sdk import DAG, task

with DAG(
    "team_beta_dag",
    schedule=None,
    start_date=pendulum.datetime(2025, 1, 1, tz="UTC"),
    catchup=False,
):

    @task
    def hello() -> str:
        return "beta"

    hello()
