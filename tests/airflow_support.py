"""Run DAGs for real in a SQLite Airflow with ``dag.test()`` (see conftest for the home)."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import textwrap
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

_MIGRATED = False


def airflow_home() -> Path:
    return Path(os.environ["AIRFLOW_HOME"])


def ensure_db() -> None:
    """Create the metadata DB once per test session."""
    global _MIGRATED
    if _MIGRATED:
        return
    airflow = Path(sys.executable).with_name("airflow")
    proc = subprocess.run(
        [str(airflow), "db", "migrate"], capture_output=True, text=True, timeout=300, check=False
    )
    if proc.returncode != 0:
        raise RuntimeError(f"airflow db migrate failed:\n{proc.stdout[-2000:]}\n{proc.stderr[-2000:]}")
    _MIGRATED = True


@dataclass
class DagRunOutcome:
    state: str
    task_states: dict[str, str]
    xcoms: dict[str, Any] = field(default_factory=dict)


def run_dag(dag_id: str, source: str, conf: dict[str, Any] | None = None) -> DagRunOutcome:
    """Write ``source`` as a DAG file, load it and run it with ``dag.test()``."""
    ensure_db()
    dag_file = airflow_home() / "dags" / f"{dag_id}.py"
    dag_file.write_text(textwrap.dedent(source), encoding="utf-8")
    spec = importlib.util.spec_from_file_location(f"dagfile_{dag_id}", dag_file)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    dag = getattr(module, "dag")
    dag_run = dag.test(run_conf=conf)
    task_states = {ti.task_id: str(ti.state) for ti in dag_run.get_task_instances()}
    return DagRunOutcome(
        state=str(dag_run.state),
        task_states=task_states,
        xcoms=_return_values(dag_id, dag_run.run_id),
    )


def _return_values(dag_id: str, run_id: str) -> dict[str, Any]:
    from airflow.models.xcom import XComModel
    from airflow.utils.session import create_session

    values: dict[str, Any] = {}
    with create_session() as session:
        rows = session.scalars(
            XComModel.get_many(run_id=run_id, dag_ids=dag_id, key="return_value")
        ).all()
        for row in rows:
            values[row.task_id] = XComModel.deserialize_value(row)
    return values
