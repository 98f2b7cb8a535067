"""The SQL audit store: the shared query API on SQLite and PostgreSQL, its schema version,
budget reservations that hold across processes, checked store URIs, migrate and export."""

from __future__ import annotations

import multiprocessing
import threading
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from types import SimpleNamespace

import pytest
from audit_support import attempt, known_history
from pg_support import PostgresServer, PostgresUnavailable, start_postgres
from test_audit_store import test_query_api as query_api_contract

from autofix.audit.budget import BudgetGuard
from autofix.audit.envelope import Envelope, Interaction, InteractionResult
from autofix.audit.events import AuditEvent
from autofix.audit.recorder import AuditRecorder
from autofix.audit.stores import build_store, store_from_uri
from autofix.audit.stores.jsonl import JsonlStore
from autofix.audit.stores.memory import MemoryStore
from autofix.audit.stores.s3 import S3Store
from autofix.audit.stores.sql import SCHEMA_VERSION, SqlStore
from autofix.audit.telemetry import NullStats
from autofix.cli import main
from autofix.config import AuditSettings, BudgetSettings, load_config
from autofix.errors import BudgetExhaustedError, ConfigError
from autofix.task.spec import TraceContext


@pytest.fixture(scope="session")
def postgres(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PostgresServer]:
    try:
        server = start_postgres(tmp_path_factory.mktemp("postgres"))
    except PostgresUnavailable as exc:
        pytest.skip(f"no PostgreSQL server for this test: {exc}")
    yield server
    server.stop()


_databases = iter(range(1_000_000))


@pytest.fixture(params=["sqlite", "postgresql"])
def sql_store(request: pytest.FixtureRequest, tmp_path: Path) -> SqlStore:
    if request.param == "sqlite":
        return SqlStore(f"sqlite:///{tmp_path / 'audit.db'}")
    server: PostgresServer = request.getfixturevalue("postgres")
    return SqlStore(server.create_database(f"audit_{next(_databases)}"), schema="autofix")


def test_query_api_on_sql(sql_store: SqlStore) -> None:
    query_api_contract(sql_store)


def test_tables_are_its_own_and_versioned(sql_store: SqlStore) -> None:
    import sqlalchemy as sa

    sql_store.append(known_history()[0])
    names = sa.inspect(sql_store.engine).get_table_names(schema=sql_store.schema)
    assert names and all(name.startswith("autofix_") for name in names)
    assert sql_store.schema_version() == SCHEMA_VERSION


def test_a_newer_schema_is_refused(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'audit.db'}"
    store = SqlStore(url)
    store.ensure_schema()
    with store.engine.begin() as conn:
        conn.execute(store.tables["version"].update().values(version=SCHEMA_VERSION + 1))
    with pytest.raises(ConfigError, match="newer than this autofix supports"):
        SqlStore(url).ensure_schema()


def test_hostname_is_recorded(tmp_path: Path) -> None:
    assert TraceContext("run-1").hostname  # this machine's name when Airflow gives none
    assert TraceContext("run-1", hostname="worker-2").hostname == "worker-2"
    store = SqlStore(f"sqlite:///{tmp_path / 'audit.db'}")
    envelope = Envelope(trace_id="run-1", operation="fix", hostname="worker-2")
    store.append(Interaction(envelope=envelope, result=InteractionResult(success=True)))
    got = store.get(envelope.envelope_id)
    assert got is not None and got.envelope.hostname == "worker-2"


def test_appending_an_envelope_again_replaces_it_and_its_spend(tmp_path: Path) -> None:
    store = SqlStore(f"sqlite:///{tmp_path / 'audit.db'}")
    first = attempt("run-1", "fix", 1, at=datetime.now(UTC), cost=1.0)
    store.append(first)
    again = first.model_copy(update={"result": first.result.model_copy(update={"cost_usd": 2.0})})
    store.append(again)
    assert store.usage().calls == 1 and store.usage().cost_usd == 2.0
    today = datetime.now(UTC).replace(hour=0, minute=0, second=0, microsecond=0)
    assert store.usage(since=today - timedelta(days=3650)).cost_usd == 2.0


# ---- store URIs


def test_store_uris_are_checked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    store = store_from_uri("sqlite:///x.db")
    assert isinstance(store, SqlStore)
    assert not (tmp_path / "sqlite:").exists() and not list(tmp_path.glob("*.jsonl"))
    assert isinstance(store_from_uri("postgresql://u@127.0.0.1/db"), SqlStore)
    assert isinstance(store_from_uri("postgresql+psycopg://u@127.0.0.1/db"), SqlStore)
    assert isinstance(store_from_uri("mysql+pymysql://u@127.0.0.1/db"), SqlStore)
    assert isinstance(store_from_uri("s3://bucket/prefix"), S3Store)
    assert isinstance(store_from_uri("memory:"), MemoryStore)
    assert isinstance(store_from_uri("audit.jsonl"), JsonlStore)
    assert isinstance(store_from_uri("jsonl:audit.log"), JsonlStore)
    for bad in ("foo://x", "sqlite:x.db", "postgres:db", "audit.db", "memory:x"):
        with pytest.raises(ConfigError, match="sqlite:///"):
            store_from_uri(bad)


def test_env_selects_the_sql_store(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'shared.db'}"
    config = load_config(
        environ={
            "AUTOFIX__AUDIT__STORE": "sql",
            "AUTOFIX__AUDIT__URL": url,
            "AUTOFIX__AUDIT__SCHEMA": "autofix",
        }
    )
    assert (config.audit.url, config.audit.schema_) == (url, "autofix")
    store = build_store(config.audit)
    assert isinstance(store, SqlStore) and store.url == url


def test_default_sql_url_is_under_the_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AUTOFIX_HOME", str(tmp_path))
    store = build_store(AuditSettings(store="sql"))
    assert isinstance(store, SqlStore)
    assert store.url == f"sqlite:///{tmp_path / 'logs' / 'autofix' / 'audit.db'}"
    with pytest.raises(ConfigError, match="inside Airflow"):
        build_store(AuditSettings(store="sql", conn_id="audit_db"))


def test_connection_becomes_a_url() -> None:
    from autofix.hooks.audit_db import connection_url

    conn = SimpleNamespace(
        conn_id="audit_db",
        conn_type="postgres",
        host="db.internal",
        port=5432,
        login="airflow",
        password="s3cret",
        schema="airflow",
    )
    assert connection_url(conn) == "postgresql+psycopg://airflow:s3cret@db.internal:5432/airflow"
    with pytest.raises(ConfigError, match="connection type 'http'"):
        connection_url(SimpleNamespace(conn_id="x", conn_type="http"))


# ---- budgets across workers


def _reserve_until_refused(url: str, trace_id: str, limit: int, tries: int) -> int:
    """One worker: ``tries`` reservations against a day limit; how many got through (each is
    settled by appending its envelope, as the task does after the call)."""
    store = SqlStore(url)
    guard = BudgetGuard(store, BudgetSettings(max_calls_per_day=limit))
    granted = 0
    for _ in range(tries):
        try:
            envelope_id, _status = guard.reserve(trace_id)
        except BudgetExhaustedError:
            continue
        granted += 1
        envelope = Envelope(envelope_id=envelope_id, trace_id=trace_id, operation="fix")
        store.append(Interaction(envelope=envelope, result=InteractionResult(success=True)))
    return granted


@pytest.mark.parametrize("workers", ["threads", "processes"])
def test_day_budget_holds_exactly_across_workers(sql_store: SqlStore, workers: str) -> None:
    limit, n, tries = 7, 6, 4  # 24 attempts race for 7 calls
    sql_store.ensure_schema()
    args = [(sql_store.url, f"run-{i}", limit, tries) for i in range(n)]
    if workers == "threads":
        results: list[int] = []
        lock = threading.Lock()

        def run(*a: object) -> None:
            got = _reserve_until_refused(*a)  # type: ignore[arg-type]
            with lock:
                results.append(got)

        threads = [threading.Thread(target=run, args=a) for a in args]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    else:
        with multiprocessing.get_context("spawn").Pool(n) as pool:
            results = pool.starmap(_reserve_until_refused, args)
    assert sum(results) == limit
    assert sql_store.usage().calls == limit
    assert sql_store.live_reservations(datetime.now(UTC)) == 0


def test_a_live_reservation_counts_until_it_expires(tmp_path: Path) -> None:
    store = SqlStore(f"sqlite:///{tmp_path / 'audit.db'}")
    now = datetime(2026, 3, 1, 12, tzinfo=UTC)
    clock = [now]
    settings = BudgetSettings(max_calls_per_run=1, reservation_ttl_seconds=600)
    guard = BudgetGuard(store, settings, clock=lambda: clock[0])
    guard.reserve("run-1", timeout_s=None)  # a worker that dies before it settles
    with pytest.raises(BudgetExhaustedError, match="max_calls_per_run"):
        guard.reserve("run-1")
    clock[0] = now + timedelta(seconds=601)
    guard.reserve("run-1")  # the dead worker's reservation has expired
    # A task's timeout stretches the expiry: timeout + margin.
    clock[0] = now + timedelta(hours=1)
    guard.reserve("run-2", timeout_s=3600)
    clock[0] = now + timedelta(hours=2)
    with pytest.raises(BudgetExhaustedError):
        guard.reserve("run-2")


def test_recorder_reserves_and_the_record_settles(tmp_path: Path) -> None:
    store = SqlStore(f"sqlite:///{tmp_path / 'audit.db'}")
    recorder = AuditRecorder(store, budgets=BudgetSettings(max_calls_per_run=2), stats=NullStats())
    envelope_id = recorder.reserve_budget("run-1", hostname="worker-1")
    assert store.live_reservations(datetime.now(UTC)) == 1
    envelope = Envelope(envelope_id=envelope_id, trace_id="run-1", operation="fix")
    store.append(Interaction(envelope=envelope, result=InteractionResult(success=True)))
    assert store.live_reservations(datetime.now(UTC)) == 0
    recorder.reserve_budget("run-1")
    with pytest.raises(BudgetExhaustedError):
        recorder.reserve_budget("run-1")
    assert [e.name for e in store.events("run-1")] == ["budget.exhausted"]


def test_per_machine_stores_say_so(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    store = JsonlStore(tmp_path / "audit.jsonl")
    guard = BudgetGuard(store, BudgetSettings(max_calls_per_day=5))
    with caplog.at_level("WARNING", logger="autofix.audit"):
        guard.reserve("run-1")
        guard.reserve("run-1")
    assert sum("counted per machine" in r.getMessage() for r in caplog.records) == 1


# ---- migrate and export


def test_migrate_jsonl_into_sql_is_idempotent(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = JsonlStore(tmp_path / "audit.jsonl")
    history = known_history()
    for item in history:
        source.append(item)
    source.append_event(AuditEvent(name="agent.started", trace_id="run-a", operation="fix"))
    target = f"sqlite:///{tmp_path / 'audit.db'}"
    args = ["audit", "migrate", "--from", str(tmp_path / "audit.jsonl"), "--to", target]
    assert main(args) == 0
    assert f"migrated {len(history)} attempt(s) and 1 event(s)" in capsys.readouterr().out
    assert main(args) == 0
    assert "migrated 0 attempt(s) and 0 event(s)" in capsys.readouterr().out
    migrated = SqlStore(target)
    assert [i.envelope_id for i in migrated.iter_all()] == [i.envelope_id for i in history]
    assert len(migrated.events("run-a")) == 1
    assert main(["report", "--store", target, "--since", "all", "--format", "json"]) == 0


def test_export_to_jsonl_and_s3(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import boto3
    from moto import mock_aws

    db = f"sqlite:///{tmp_path / 'audit.db'}"
    store = SqlStore(db)
    for item in known_history():
        store.append(item)
    archive = tmp_path / "archive.jsonl"
    assert main(["audit", "export", "--from", db, "--to", str(archive)]) == 0
    assert len(list(JsonlStore(archive).iter_all())) == len(known_history())
    with mock_aws():
        boto3.client("s3", region_name="us-east-1").create_bucket(Bucket="archive")
        assert main(["audit", "export", "--from", db, "--to", "s3://archive/audit"]) == 0
        assert len(S3Store("archive", "audit").by_trace("run-a")) == 3
    assert main(["audit", "export", "--from", db, "--to", db]) == 2
    assert "not a database" not in capsys.readouterr().err
