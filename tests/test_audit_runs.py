"""The runs page (AuditStore.runs): one row per DAG run that made agent calls, filtered and
paged; every store answers alike (the scan of MemoryStore and the grouped SQL of SqlStore on
SQLite and PostgreSQL), and a version-1 SQL store is migrated to answer it."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest
import sqlalchemy as sa
from audit_support import T0, TM, attempt
from test_audit_sql_store import postgres, sql_store  # noqa: F401 (fixtures)

from autofix.audit.envelope import Interaction
from autofix.audit.runs import RunPage, RunQuery
from autofix.audit.stores.base import AuditStore
from autofix.audit.stores.memory import MemoryStore
from autofix.audit.stores.sql import SCHEMA_VERSION, SqlStore
from autofix.result import FailureKind, Status

pytestmark = pytest.mark.unit
M = timedelta(minutes=1)


def _in(item: Interaction, dag: str, agent: str, parent: Interaction | None = None) -> Interaction:
    item.envelope.agent_id = agent
    if parent is None:
        item.envelope.dag_id = dag
        item.envelope.task_id = "fix"
    else:
        item.envelope.causation_id = parent.envelope_id  # an old-style retry: DAG from its parent
    return item


def history() -> list[Interaction]:
    """Two DAGs share the run id "scheduled__1" (scheduled runs of two DAGs do)."""
    a1 = _in(attempt("scheduled__1", "fix", 1, errors=(TM,), at=T0), "alpha", "claude")
    a2 = _in(attempt("scheduled__1", "fix", 2, at=T0 + M), "alpha", "claude", a1)
    b1 = _in(attempt("scheduled__1", "lint", 1, at=T0 + 2 * M, cost=0.5), "beta", "codex")
    c1 = _in(
        attempt("manual__2", "fix", 1, status=Status.AUTH_FAILED, at=T0 + 3 * M), "alpha", "gemini"
    )
    c1.result.failure_kind = FailureKind.AUTH
    old = attempt("manual__3", "review", 1, at=T0 + 4 * M)
    old.envelope.causation_id = "gamma.review#try1"  # a record from before envelopes named a DAG
    return [a1, a2, b1, c1, old]


def _scanned(query: RunQuery) -> RunPage:
    """What the scan of every record answers (MemoryStore): the SQL summaries must agree."""
    store = MemoryStore()
    for item in history():
        store.append(item)
    return store.runs(query)


def _keys(store: AuditStore, **query: object) -> list[tuple[str | None, str]]:
    return [(row.dag_id, row.run_id) for row in store.runs(RunQuery(**query)).rows]  # type: ignore[arg-type]


def _check(store: AuditStore) -> None:
    for item in history():
        store.append(item)
    page = store.runs(RunQuery())
    assert page.total == 4
    rows = {(row.dag_id, row.run_id): row for row in page.rows}
    assert list(rows) == [
        ("gamma", "manual__3"),
        ("alpha", "manual__2"),
        ("beta", "scheduled__1"),
        ("alpha", "scheduled__1"),
    ]
    recovered = rows[("alpha", "scheduled__1")]
    assert (recovered.calls, recovered.attempts, recovered.retries, recovered.succeeded) == (
        1,
        2,
        1,
        1,
    )
    assert recovered.outcome == "all_valid" and recovered.cost_usd == pytest.approx(0.5)
    assert recovered.tokens == 300 and recovered.agents == ("claude",)
    assert recovered.first_at == T0 and recovered.last_at == T0 + M
    failed = rows[("alpha", "manual__2")]
    assert failed.outcome == "had_failures" and failed.failure_kinds == ("auth",)
    assert _keys(store, dag_ids=frozenset({"alpha"})) == [
        ("alpha", "manual__2"),
        ("alpha", "scheduled__1"),
    ]
    assert _keys(store, dag_ids=frozenset()) == []
    assert _keys(store, dag_id="beta") == [("beta", "scheduled__1")]
    assert _keys(store, agent="codex") == [("beta", "scheduled__1")]
    assert _keys(store, operation="review") == [("gamma", "manual__3")]
    assert _keys(store, outcome="had_failures") == [("alpha", "manual__2")]
    assert _keys(store, failure_kind="auth") == [("alpha", "manual__2")]
    assert _keys(store, since=T0 + 2 * M, until=T0 + 3 * M) == [
        ("alpha", "manual__2"),
        ("beta", "scheduled__1"),
    ]
    windowed = store.runs(RunQuery(since=T0 + M, dag_id="alpha")).rows
    assert [(r.run_id, r.attempts, r.calls) for r in windowed] == [
        ("manual__2", 1, 1),
        ("scheduled__1", 2, 1),  # a call in the window; its sums are the whole run's
    ]
    second = store.runs(RunQuery(offset=1, limit=2))
    assert second.total == 4 and [r.run_id for r in second.rows] == ["manual__2", "scheduled__1"]


def test_runs_by_scan() -> None:
    _check(MemoryStore())


def test_runs_in_sql(sql_store: SqlStore) -> None:  # noqa: F811
    _check(sql_store)


def test_appending_an_attempt_again_replaces_it_in_its_run(tmp_path: Path) -> None:
    store = SqlStore(f"sqlite:///{tmp_path / 'audit.db'}")
    items = history()
    for item in items:
        store.append(item)
    store.append(items[0])  # the same envelope id again: its row is replaced, not added
    assert store.runs(RunQuery(dag_id="alpha")) == _scanned(RunQuery(dag_id="alpha"))


def test_a_version_1_store_is_migrated(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'audit.db'}"
    store = SqlStore(url)
    for item in history():
        store.append(item)
    with store.engine.begin() as conn:  # back to version 1: no agent or error_key columns
        conn.exec_driver_sql("DROP INDEX ix_autofix_interactions_window")  # of version 3
        conn.exec_driver_sql("DROP INDEX ix_autofix_interactions_agent")
        conn.exec_driver_sql("DROP INDEX ix_autofix_interactions_error_key")
        conn.exec_driver_sql("ALTER TABLE autofix_interactions DROP COLUMN agent")
        conn.exec_driver_sql("ALTER TABLE autofix_interactions DROP COLUMN error_key")
        conn.exec_driver_sql("UPDATE autofix_schema_version SET version = 1")
    with store.engine.begin() as conn:  # version 1 had no run summaries either
        conn.exec_driver_sql("DROP TABLE autofix_run_facets")
        conn.exec_driver_sql("DROP TABLE autofix_runs")
    migrated = SqlStore(url)
    assert migrated.schema_version() == SCHEMA_VERSION
    assert migrated.runs(RunQuery()) == _scanned(RunQuery())
    assert _keys(migrated, agent="codex") == [("beta", "scheduled__1")]
    with migrated.engine.connect() as conn:
        keys = conn.execute(sa.text("SELECT error_key FROM autofix_interactions ORDER BY id"))
        assert [row[0] for row in keys] == [
            "type_mismatch: $.f#: bad",
            None,
            None,
            "[fix] auth_failed",
            None,
        ]
