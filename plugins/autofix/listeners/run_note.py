"""The DAG run's note says how an autofix run ended, where people look first.

A task cannot write its run's note (the Task SDK has no call for it), so each summary task (and
a plan task that fails, an approval that rejects, a publish that pushes) pushes one Markdown
line under ``RUN_NOTE_KEY``, and this listener, called by the scheduler (or ``dag.test()``)
when the run succeeds or fails, joins the lines into the note, a project's in the order they
were pushed. A note a person wrote is never replaced: only an empty note or one this
listener wrote (it starts with ``HEADER``) is.
"""

from __future__ import annotations

import logging
from typing import Any

from airflow.listeners import hookimpl
from sqlalchemy import select
from sqlalchemy.orm import object_session

RUN_NOTE_KEY = "autofix_run_note"  # the key autofix.operators.fixing pushes
HEADER = "autofix"
MAX_NOTE_CHARS = 1000  # Airflow's dag_run_note.content column

log = logging.getLogger(__name__)


def compose(lines: list[str], state: str) -> str:
    """The note: a header with the run's state, then one line per project."""
    note = "\n".join([f"{HEADER} · run {state}", *(f"- {line}" for line in lines)])
    return note if len(note) <= MAX_NOTE_CHARS else note[: MAX_NOTE_CHARS - 1] + "…"


def _note_lines(dag_run: Any, session: Any) -> list[str]:
    from airflow.models.xcom import XComModel

    rows = session.scalars(
        select(XComModel)
        .where(
            XComModel.dag_id == dag_run.dag_id,
            XComModel.run_id == dag_run.run_id,
            XComModel.key == RUN_NOTE_KEY,
        )
        .order_by(XComModel.map_index, XComModel.timestamp)  # a project's lines in order
    )
    return [str(XComModel.deserialize_value(row)) for row in rows]


def _write(dag_run: Any, session: Any, state: str) -> None:
    lines = _note_lines(dag_run, session)
    current = dag_run.note or ""
    if lines and (not current or current.startswith(HEADER)):
        dag_run.note = compose(lines, state)


def write_note(dag_run: Any, state: str) -> None:
    """The scheduler's run is in its session: the note is committed with the new state (a
    session of our own would wait on the run's row lock). ``dag.test()`` hands over a detached
    run: then a session of our own writes it."""
    session = object_session(dag_run)
    if session is not None:
        _write(dag_run, session, state)
        return
    from airflow.models.dagrun import DagRun
    from airflow.utils.session import create_session

    with create_session() as own:
        run = own.get(DagRun, dag_run.id)
        if run is not None:
            _write(run, own, state)


def _safely(dag_run: Any, state: str) -> None:
    try:
        write_note(dag_run, state)
    except Exception as exc:  # a note is a courtesy: never a reason for the run to misbehave
        log.warning("autofix: could not write the run note of %s: %s", dag_run.run_id, exc)


@hookimpl
def on_dag_run_success(dag_run: Any, msg: str) -> None:
    _safely(dag_run, "succeeded")


@hookimpl
def on_dag_run_failed(dag_run: Any, msg: str) -> None:
    _safely(dag_run, "failed")
