"""The SQL audit store's tables, their schema versions, and its engine (SQLite set-up)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from autofix.errors import ConfigError
from autofix.redact import redact

TABLE_PREFIX = "autofix_"
SCHEMA_VERSION = 3
SQLITE_BUSY_TIMEOUT_MS = 30_000


def audit_tables(metadata: sa.MetaData) -> dict[str, sa.Table]:
    p = TABLE_PREFIX
    interactions = sa.Table(
        f"{p}interactions",
        metadata,
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), primary_key=True),
        sa.Column("envelope_id", sa.String(64), nullable=False, unique=True),
        sa.Column("trace_id", sa.String(250), nullable=False, index=True),
        sa.Column("dag_id", sa.String(250), index=True),
        sa.Column("task_id", sa.String(250), index=True),
        sa.Column("operation", sa.String(250), nullable=False, index=True),
        sa.Column("day", sa.Date(), nullable=False, index=True),
        sa.Column("recorded_at", sa.DateTime(timezone=True), nullable=False, index=True),
        sa.Column("attempt", sa.Integer(), nullable=False, index=True),
        sa.Column("status", sa.String(40), nullable=False, index=True),
        sa.Column("success", sa.Boolean(), nullable=False, index=True),
        sa.Column("failure_kind", sa.String(40), index=True),
        sa.Column("error_category", sa.String(40), index=True),
        sa.Column("strategy", sa.String(40), index=True),
        sa.Column("hostname", sa.String(250), index=True),
        sa.Column("agent", sa.String(100), index=True),  # version 2
        sa.Column("error_key", sa.String(200), index=True),  # version 2
        # version 3: what the health page sums (autofix.audit.health.HealthFacts)
        sa.Column("valid", sa.Boolean()),
        sa.Column("chain_step", sa.Integer()),
        sa.Column("chain_categories", sa.String(200)),
        sa.Column("health_group", sa.String(250)),
        sa.Column("noise_lines", sa.Integer()),
        sa.Column("rules", sa.String(1000)),
        sa.Column("cost_usd", sa.Float()),
        sa.Column("tokens", sa.BigInteger(), nullable=False, default=0),
        sa.Column("v", sa.Integer(), nullable=False),
        sa.Column("envelope", sa.JSON(), nullable=False),
        sa.Column("result", sa.JSON(), nullable=False),
        # The health page reads these two alone, never the wide rows (version 3). By day
        # and group first: its sums stream out in that order, with no sort.
        sa.Index(
            f"ix_{p}interactions_health",
            "day",
            "health_group",
            "dag_id",
            "recorded_at",
            "cost_usd",
        ),
        # A DAG's window: its errors, noise and the alert's latest retries.
        sa.Index(
            f"ix_{p}interactions_window",
            "dag_id",
            "recorded_at",
            "attempt",
            "valid",
            "error_key",
            "noise_lines",
            "rules",
        ),
    )
    events = sa.Table(
        f"{p}events",
        metadata,
        sa.Column("seq", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), primary_key=True),
        sa.Column("event_id", sa.String(64), nullable=False, unique=True),
        sa.Column("trace_id", sa.String(250), nullable=False, index=True),
        sa.Column("name", sa.String(100), nullable=False, index=True),
        sa.Column("operation", sa.String(250), nullable=False),
        sa.Column("timestamp", sa.DateTime(timezone=True), nullable=False, index=True),
        sa.Column("data", sa.JSON(), nullable=False),  # the whole event
    )
    days = sa.Table(
        f"{p}budget_days",
        metadata,
        sa.Column("day", sa.Date(), primary_key=True),
        sa.Column("calls", sa.BigInteger(), nullable=False, default=0),
        sa.Column("cost_usd", sa.Float(), nullable=False, default=0.0),
        sa.Column("tokens", sa.BigInteger(), nullable=False, default=0),
    )
    reservations = sa.Table(
        f"{p}budget_reservations",
        metadata,
        sa.Column("id", sa.String(64), primary_key=True),  # the envelope id of the call
        sa.Column("trace_id", sa.String(250), nullable=False, index=True),
        sa.Column("day", sa.Date(), nullable=False, index=True),
        sa.Column("hostname", sa.String(250)),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False, index=True),
    )
    # Version 2: one row per DAG run (its attempts summed as they are appended) and the agents,
    # operations and failure kinds it used: the UI's runs page reads these, not every attempt.
    runs = sa.Table(
        f"{p}runs",
        metadata,
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), primary_key=True),
        sa.Column("dag_id", sa.String(250), nullable=False, default=""),  # "": not known
        sa.Column("trace_id", sa.String(250), nullable=False),
        sa.Column("calls", sa.Integer(), nullable=False, default=0),
        sa.Column("attempts", sa.Integer(), nullable=False, default=0),
        sa.Column("succeeded", sa.Integer(), nullable=False, default=0),
        sa.Column("cost_usd", sa.Float(), nullable=False, default=0.0),
        sa.Column("tokens", sa.BigInteger(), nullable=False, default=0),
        sa.Column("first_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_at", sa.DateTime(timezone=True), nullable=False, index=True),
        # trace_id first: an index led by dag_id would win the planner's choice for the page's
        # "dag_id IN (the readable DAGs)" and sort every run; last_at's index reads 25.
        sa.UniqueConstraint("trace_id", "dag_id", name=f"{p}runs_trace_dag"),
    )
    run_facets = sa.Table(
        f"{p}run_facets",
        metadata,
        sa.Column("run", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), primary_key=True),
        sa.Column("kind", sa.String(20), primary_key=True),  # agent, operation, failure_kind
        sa.Column("value", sa.String(250), primary_key=True),
        sa.Index(f"ix_{p}run_facets_kind_value", "kind", "value", "run"),
    )
    version = sa.Table(
        f"{p}schema_version",
        metadata,
        sa.Column("version", sa.Integer(), nullable=False),
    )
    return {
        "interactions": interactions,
        "events": events,
        "days": days,
        "reservations": reservations,
        "runs": runs,
        "run_facets": run_facets,
        "version": version,
    }


def _add_agent_and_error_key(conn: Connection, tables: dict[str, sa.Table]) -> None:
    """Version 2: the agent and the folded first error as columns (the UI filters and counts
    by them), filled from each row's own record; the run summaries built from the rows."""
    from autofix.audit.envelope import InteractionResult

    t = tables["interactions"]
    _add_columns(conn, t, ["agent", "error_key"])
    update = (
        t.update()
        .where(t.c.id == sa.bindparam("row_id"))
        .values(agent=sa.bindparam("new_agent"), error_key=sa.bindparam("new_error_key"))
    )
    last = -1
    while rows := conn.execute(  # in pages: a large store is never read into memory at once
        sa.select(t.c.id, t.c.envelope, t.c.result)
        .where(t.c.id > last)
        .order_by(t.c.id)
        .limit(2000)
    ).all():
        changes = [
            {
                "row_id": row.id,
                "new_agent": str(row.envelope.get("agent_id") or "")[:100] or None,
                "new_error_key": InteractionResult.model_validate(
                    row.result, context={"stored": True}
                ).error_key,
            }
            for row in rows
        ]
        conn.execute(update, changes)
        last = rows[-1].id
    from autofix.audit.stores.sql_runs import rebuild_runs

    rebuild_runs(conn, tables)


def _add_columns(conn: Connection, t: sa.Table, names: list[str]) -> None:
    """The named columns that are not there yet, and the indexes that use them (once every
    column an index names is there: a later version may add the rest)."""
    existing = {column["name"] for column in sa.inspect(conn).get_columns(t.name, t.schema)}
    preparer = conn.dialect.identifier_preparer
    for name in names:
        if name not in existing:
            column = t.c[name]
            column_type = column.type.compile(dialect=conn.dialect)
            table, quoted = preparer.format_table(t), preparer.quote(name)
            conn.execute(sa.text(f"ALTER TABLE {table} ADD COLUMN {quoted} {column_type}"))
    existing.update(names)
    for index in t.indexes:
        columns = {c.name for c in index.columns}
        if columns & set(names) and columns <= existing:
            index.create(conn, checkfirst=True)


def _add_health_facts(conn: Connection, tables: dict[str, sa.Table]) -> None:
    """Version 3: the health page's facts of each attempt as columns, filled from each row's
    record; read run by run (a chain never leaves its run), so memory holds one run's chains."""
    from autofix.audit.envelope import Interaction
    from autofix.audit.health import ChainLink, HealthFacts, chain_link

    t = tables["interactions"]
    names = ["valid", "chain_step", "chain_categories", "health_group", "noise_lines", "rules"]
    _add_columns(conn, t, names)
    update = (
        t.update()
        .where(t.c.id == sa.bindparam("row_id"))
        .values({name: sa.bindparam(f"new_{name}") for name in names})
    )
    columns = (t.c.id, t.c.trace_id, t.c.dag_id, t.c.operation, t.c.v, t.c.envelope, t.c.result)
    last: tuple[str, int] = ("", -1)
    links: dict[tuple[str | None, str], ChainLink] = {}
    while rows := conn.execute(
        sa.select(*columns)
        .where(sa.tuple_(t.c.trace_id, t.c.id) > last)
        .order_by(t.c.trace_id, t.c.id)
        .limit(2000)
    ).all():
        changes = []
        for row in rows:
            if row.trace_id != last[0]:
                links.clear()
            last = (row.trace_id, row.id)
            data = {"v": row.v, "envelope": row.envelope, "result": row.result}
            try:
                item = Interaction.from_stored(data)
            except ValueError:
                continue  # a record that does not validate is skipped by every query too
            key = (row.dag_id, row.operation)
            link = links[key] = chain_link(item, links.get(key))
            facts = HealthFacts.of(item, link).columns()
            changes.append({"row_id": row.id, **{f"new_{k}": v for k, v in facts.items()}})
        if changes:
            conn.execute(update, changes)


# One step per schema version: MIGRATIONS[n] takes a database at version n-1 to version n.
# Version 1 is the first schema (created by create_all); later versions add steps here.
MIGRATIONS: dict[int, Callable[[Connection, dict[str, sa.Table]], None]] = {
    1: lambda conn, tables: None,
    2: _add_agent_and_error_key,
    3: _add_health_facts,
}


def make_engine(url_text: str) -> Engine:
    """An engine for ``url_text``; ConfigError for a URL that is not one or a missing driver."""
    try:
        url = sa.make_url(url_text)
    except Exception as exc:
        raise ConfigError(
            f"audit.url {redact(url_text)!r} is not a SQLAlchemy URL: {exc}; "
            "use sqlite:///path/audit.db or postgresql+psycopg://user:pw@host:5432/db"
        ) from None
    if url.get_backend_name() == "sqlite":
        return _sqlite_engine(url)
    try:
        return sa.create_engine(url, pool_pre_ping=True, future=True)
    except ModuleNotFoundError as exc:
        raise ConfigError(
            f"audit.url needs the {exc.name} database driver: "
            "pip install 'airflow-autofix[postgres]' (PostgreSQL)"
        ) from None


def _sqlite_engine(url: sa.URL) -> Engine:
    if url.database and url.database != ":memory:":
        Path(url.database).expanduser().parent.mkdir(parents=True, exist_ok=True)
    engine = sa.create_engine(
        url, connect_args={"timeout": SQLITE_BUSY_TIMEOUT_MS / 1000}, future=True
    )

    @sa.event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        # Transactions are begun below, so a writer can take the lock up front.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.close()

    @sa.event.listens_for(engine, "begin")
    def _on_begin(conn: Connection) -> None:
        # A writer starts IMMEDIATE: a deferred one that upgrades its lock later can fail
        # with "database is locked" at once, whatever the busy timeout.
        immediate = conn.get_execution_options().get("autofix_write", False)
        conn.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")

    return engine
