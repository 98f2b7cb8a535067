"""Run DAGs for real in a SQLite Airflow with ``dag.test()`` (see conftest for the home)."""

from __future__ import annotations

import importlib.util
import os
import shutil
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
        raise RuntimeError(
            f"airflow db migrate failed:\n{proc.stdout[-2000:]}\n{proc.stderr[-2000:]}"
        )
    _MIGRATED = True


@dataclass
class DagRunOutcome:
    dag_id: str
    run_id: str
    state: str
    task_states: dict[str, str]
    try_numbers: dict[str, int]
    xcoms: dict[str, Any] = field(default_factory=dict)
    map_names: dict[str, str | None] = field(default_factory=dict)  # rendered map indexes

    def xcoms_by_key(self, task_id: str, key: str) -> Any:
        return _xcom_values(self.dag_id, self.run_id, key).get(task_id)

    def note(self) -> str | None:
        """The DAG run's note, as the UI shows it."""
        from airflow.models.dagrun import DagRun
        from airflow.utils.session import create_session

        with create_session() as session:
            run = session.query(DagRun).filter_by(dag_id=self.dag_id, run_id=self.run_id).one()
            return str(run.note) if run.note is not None else None

    def rendered_fields(self, task_id: str, map_index: int = -1) -> dict[str, Any]:
        """What the Rendered Templates tab shows for the task instance."""
        from airflow.models.renderedtifields import RenderedTaskInstanceFields
        from airflow.utils.session import create_session

        with create_session() as session:
            row = (
                session.query(RenderedTaskInstanceFields)
                .filter_by(dag_id=self.dag_id, run_id=self.run_id, task_id=task_id)
                .filter_by(map_index=map_index)
                .one_or_none()
            )
            return dict(row.rendered_fields) if row is not None else {}

    def state_store(self, task_id: str, map_index: int = -1) -> dict[str, Any]:
        """The task instance's Task State Store: key → JSON value (kept across its tries)."""
        import json

        from airflow.models.task_state_store import TaskStateStoreModel
        from airflow.utils.session import create_session

        with create_session() as session:
            rows = session.query(TaskStateStoreModel).filter_by(
                dag_id=self.dag_id, run_id=self.run_id, task_id=task_id, map_index=map_index
            )
            return {row.key: json.loads(row.value) for row in rows}


def run_dag(dag_id: str, source: str, conf: dict[str, Any] | None = None) -> DagRunOutcome:
    """Write ``source`` as a DAG file, load it and run it with ``dag.test()``."""
    dag_file = airflow_home() / "dags" / f"{dag_id}.py"
    dag_file.write_text(textwrap.dedent(source), encoding="utf-8")
    return run_dag_file(dag_file, conf)


def run_dag_file(dag_file: Path, conf: dict[str, Any] | None = None) -> DagRunOutcome:
    """Load an existing DAG file (its module-level ``dag``) and run it with ``dag.test()``.

    A file outside the dags folder is copied in first: ``dag.test()`` serializes the DAG from
    there. Mapped task instances are keyed ``task_id[map_index]``.
    """
    ensure_db()
    dags = airflow_home() / "dags"
    if dag_file.resolve().parent != dags.resolve():
        dag_file = Path(shutil.copy2(dag_file, dags / dag_file.name))
    spec = importlib.util.spec_from_file_location(f"dagfile_{dag_file.stem}", dag_file)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    dag = module.dag
    dag_run = dag.test(run_conf=conf)
    instances = dag_run.get_task_instances()
    return DagRunOutcome(
        dag_id=dag.dag_id,
        run_id=dag_run.run_id,
        state=str(dag_run.state),
        task_states={_key(ti.task_id, ti.map_index): str(ti.state) for ti in instances},
        try_numbers={_key(ti.task_id, ti.map_index): int(ti.try_number) for ti in instances},
        xcoms=_xcom_values(dag.dag_id, dag_run.run_id, "return_value"),
        map_names={
            _key(ti.task_id, ti.map_index): ti.rendered_map_index
            for ti in instances
            if ti.map_index is not None and ti.map_index >= 0
        },
    )


def _key(task_id: str, map_index: int | None) -> str:
    return task_id if map_index is None or map_index < 0 else f"{task_id}[{map_index}]"


def _xcom_values(dag_id: str, run_id: str, key: str) -> dict[str, Any]:
    from airflow.models.xcom import XComModel
    from airflow.sdk.serde import deserialize
    from airflow.utils.session import create_session

    values: dict[str, Any] = {}
    with create_session() as session:
        rows = session.scalars(XComModel.get_many(run_id=run_id, dag_ids=dag_id, key=key)).all()
        for row in rows:
            value = XComModel.deserialize_value(row)
            if isinstance(value, dict) and "__classname__" in value:
                value = deserialize(value)
            values[_key(row.task_id, row.map_index)] = value
    return values


@dataclass
class TryRecord:
    """One finished or current try of a task instance (history rows, then the live row)."""

    try_number: int
    state: str
    start_date: Any
    end_date: Any
    retry_delay_override: float | None
    retry_reason: str | None


def try_history(outcome: DagRunOutcome, task_id: str) -> dict[int, TryRecord]:
    """Every try of ``task_id`` in the run, by try number (earlier tries from the history)."""
    from airflow.models.taskinstance import TaskInstance
    from airflow.models.taskinstancehistory import TaskInstanceHistory
    from airflow.utils.session import create_session

    tries: dict[int, TryRecord] = {}
    with create_session() as session:
        for model in (TaskInstanceHistory, TaskInstance):
            rows = session.query(model).filter(
                model.dag_id == outcome.dag_id,
                model.run_id == outcome.run_id,
                model.task_id == task_id,
            )
            for row in rows:
                tries[int(row.try_number)] = TryRecord(
                    int(row.try_number),
                    str(row.state),
                    row.start_date,
                    row.end_date,
                    row.retry_delay_override,
                    row.retry_reason,
                )
    return tries
