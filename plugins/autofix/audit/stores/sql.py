"""SqlStore: the audit store in a database (SQLite by default, PostgreSQL for many workers).

Its own tables, all named ``autofix_*`` (optionally in their own PostgreSQL schema), never
Airflow's. Queries run as indexed SQL; the day's spend is kept in a per-day counter row so a
budget check reads one row, however many records there are. Budget reservations make the
check and the spend atomic across workers (autofix.audit.budget).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterable, Iterator
from datetime import date, datetime, timedelta
from functools import cached_property
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import SQLAlchemyError

from autofix.audit.envelope import Interaction, aware, new_id, utc
from autofix.audit.events import AuditEvent
from autofix.audit.health import Health, HealthQuery
from autofix.audit.runs import RunPage, RunQuery, dag_and_task_of
from autofix.audit.stores.base import AuditStore, Usage, load_record
from autofix.audit.stores.sql_health import health_columns, previous_in_chain, select_health
from autofix.audit.stores.sql_runs import RunSummaries, select_runs
from autofix.audit.stores.sql_schema import (
    MIGRATIONS,
    SCHEMA_VERSION,
    audit_tables,
    make_engine,
)
from autofix.errors import AuditWriteError, ConfigError
from autofix.redact import redact

log = logging.getLogger("autofix.audit")

# pg_advisory_xact_lock key for budget reservations: "autofix" in ASCII, any constant will do.
_PG_BUDGET_LOCK = 0x6175746F666978


def _midnight(moment: datetime) -> bool:
    m = utc(moment)
    return (m.hour, m.minute, m.second, m.microsecond) == (0, 0, 0, 0)


def _short(value: Any, size: int) -> str | None:
    return None if value is None else str(value)[:size]


class _Statements:
    """The statements every append and reservation runs, built once with bind parameters:
    building them per call (SQLAlchemy's expression and cache-key work) cost more than the
    database did."""

    def __init__(self, tables: dict[str, sa.Table], dialect: str) -> None:
        t, days, r = tables["interactions"], tables["days"], tables["reservations"]
        moment = sa.bindparam("moment", type_=sa.DateTime(timezone=True))
        today = sa.bindparam("today", type_=sa.Date())
        trace_id = sa.bindparam("trace_id", type_=sa.String())
        self.summaries = RunSummaries(tables, dialect)
        self.old_row = sa.select(
            t.c.id,
            t.c.day,
            t.c.cost_usd,
            t.c.tokens,
            t.c.dag_id,
            t.c.trace_id,
            t.c.attempt,
            t.c.success,
        ).where(t.c.envelope_id == sa.bindparam("old_envelope_id"))
        self.parent = sa.select(t.c.dag_id, t.c.task_id).where(
            t.c.envelope_id == sa.bindparam("parent_id")
        )
        self.previous_in_chain = previous_in_chain(t)
        self.insert_row = t.insert()
        self.delete_row = t.delete().where(t.c.id == sa.bindparam("row_id"))
        self.settle = r.delete().where(r.c.id == sa.bindparam("reservation_id"))
        self.expire = r.delete().where(r.c.expires_at <= moment)
        self.insert_reservation = r.insert()
        self.add_day: sa.Executable | None = None
        if dialect in ("postgresql", "sqlite"):
            upsert = (postgresql_insert if dialect == "postgresql" else sqlite_insert)(days)
            self.add_day = upsert.on_conflict_do_update(
                index_elements=[days.c.day],
                set_={
                    "calls": days.c.calls + upsert.excluded.calls,
                    "cost_usd": days.c.cost_usd + upsert.excluded.cost_usd,
                    "tokens": days.c.tokens + upsert.excluded.tokens,
                },
            )
        live = r.c.expires_at > moment

        def total(table: sa.Table, column: sa.Column[Any], *where: Any) -> Any:
            zero = 0.0 if column.name == "cost_usd" else 0
            return (
                sa.select(sa.func.coalesce(sa.func.sum(column), zero))
                .select_from(table)
                .where(*where)
                .scalar_subquery()
            )

        def count(table: sa.Table, *where: Any) -> Any:
            return sa.select(sa.func.count()).select_from(table).where(*where).scalar_subquery()

        # Settled spend plus live reservations, run and day, in one statement: a settle
        # committing meanwhile is seen whole or not at all.
        self.live_usage = sa.select(
            count(t, t.c.trace_id == trace_id),
            total(t, t.c.cost_usd, t.c.trace_id == trace_id),
            total(t, t.c.tokens, t.c.trace_id == trace_id),
            count(r, r.c.trace_id == trace_id, live),
            total(days, days.c.calls, days.c.day == today),
            total(days, days.c.cost_usd, days.c.day == today),
            total(days, days.c.tokens, days.c.day == today),
            count(r, r.c.day == today, live),
        )


class SqlStore(AuditStore):
    """The audit trail in SQL tables (SQLAlchemy 2 Core).

    ``url`` is a SQLAlchemy URL: ``sqlite:///path/audit.db`` (WAL, a busy timeout),
    ``postgresql+psycopg://user:pw@host/db`` (``pip install airflow-autofix[postgres]``), or
    ``mysql+...`` (untested). ``schema`` puts the tables in that PostgreSQL schema.

    An envelope id is unique: appending one again replaces its row (the latest attempt wins,
    as ``get`` answers on every store); ``import_interaction`` skips it instead (migrations).
    """

    def __init__(self, url: str, *, schema: str | None = None, engine: Engine | None = None):
        self.url = url
        self.schema = schema or None
        self._engine = engine
        self._ready = False
        self._ready_lock = threading.Lock()
        self.metadata = sa.MetaData(schema=self.schema)
        self.tables = audit_tables(self.metadata)

    # ---- connection and schema

    def describe(self) -> str:
        try:
            shown = sa.make_url(self.url).render_as_string(hide_password=True)
        except Exception:
            shown = redact(self.url)
        return f"sql:{shown}" + (f" (schema {self.schema})" if self.schema else "")

    @property
    def dialect(self) -> str:
        return self.engine.dialect.name

    @cached_property
    def _sql(self) -> _Statements:
        return _Statements(self.tables, self.dialect)

    @property
    def engine(self) -> Engine:
        if self._engine is None:
            self._engine = make_engine(self.url)
        return self._engine

    def _write_conn(self) -> Connection:
        return self.engine.connect().execution_options(autofix_write=True)

    def ensure_schema(self) -> None:
        """Create the tables on first use; migrate an older schema; refuse a newer one."""
        if self._ready:
            return
        with self._ready_lock:
            if self._ready:
                return
            try:
                self._ensure_schema()
            except SQLAlchemyError as exc:
                raise AuditWriteError(
                    f"cannot open the audit store {self.describe()}: {redact(str(exc))}"
                ) from exc
            self._ready = True

    def _ensure_schema(self) -> None:
        version_table = self.tables["version"]
        with self._write_conn() as conn, conn.begin():
            if self.schema and self.dialect == "postgresql":
                conn.execute(sa.text(f'CREATE SCHEMA IF NOT EXISTS "{self.schema}"'))
            if self.dialect == "postgresql":
                # Two workers starting at once must not both create the tables.
                conn.execute(sa.select(sa.func.pg_advisory_xact_lock(_PG_BUDGET_LOCK + 1)))
            self.metadata.create_all(conn, checkfirst=True)
            found = conn.execute(sa.select(sa.func.max(version_table.c.version))).scalar()
            if found is None:
                conn.execute(version_table.insert().values(version=SCHEMA_VERSION))
                return
            if found > SCHEMA_VERSION:
                raise ConfigError(
                    f"the audit store {self.describe()} has schema version {found}, newer than "
                    f"this autofix supports ({SCHEMA_VERSION}): upgrade airflow-autofix on this "
                    "machine, or point audit.url at another database"
                )
            for step in range(found + 1, SCHEMA_VERSION + 1):
                MIGRATIONS[step](conn, self.tables)
                conn.execute(version_table.update().values(version=step))

    def schema_version(self) -> int | None:
        self.ensure_schema()
        with self.engine.connect() as conn:
            found = conn.execute(sa.select(sa.func.max(self.tables["version"].c.version)))
            value = found.scalar()
            return int(value) if value is not None else None

    def _read(self) -> Connection:
        self.ensure_schema()
        return self.engine.connect()

    def _write(self, what: str, work: Callable[[Connection], Any]) -> Any:
        self.ensure_schema()
        try:
            with self._write_conn() as conn, conn.begin():
                return work(conn)
        except SQLAlchemyError as exc:
            raise AuditWriteError(
                f"cannot write audit {what} to {self.describe()}: {redact(str(exc))}"
            ) from exc

    # ---- writing

    def _row(self, interaction: Interaction, conn: Connection) -> dict[str, Any]:
        envelope, result = interaction.envelope, interaction.result
        recorded = utc(interaction.recorded_at)
        dag_id, task_id = envelope.dag_id, envelope.task_id
        if dag_id is None:
            dag_id, task_id = dag_and_task_of(envelope.causation_id)
        if dag_id is None and envelope.causation_id:
            # A retry is caused by the previous attempt: its row knows the task.
            parent = conn.execute(self._sql.parent, {"parent_id": envelope.causation_id}).first()
            if parent is not None:
                dag_id, task_id = parent.dag_id, parent.task_id
        categories = result.error_categories
        strategy = envelope.context.get("strategy")
        failure_kind = result.failure_kind.value if result.failure_kind is not None else None
        dumped = interaction.model_dump(mode="json")
        row = {
            "envelope_id": envelope.envelope_id,
            "trace_id": envelope.trace_id,
            "dag_id": _short(dag_id, 250),
            "task_id": _short(task_id, 250),
            "operation": envelope.operation[:250],
            "day": recorded.date(),
            "recorded_at": recorded,
            "attempt": result.attempt_number,
            "status": result.status.value,
            "success": result.success,
            "failure_kind": failure_kind,
            "error_category": categories[0] if categories else None,
            "strategy": _short(strategy, 40) if strategy else None,
            "hostname": _short(envelope.hostname, 250) if envelope.hostname else None,
            "agent": _short(envelope.agent_id, 100) if envelope.agent_id else None,
            "error_key": result.error_key,
            "cost_usd": result.cost_usd,
            "tokens": result.total_tokens,
            "v": interaction.v,
            "envelope": dumped["envelope"],
            "result": dumped["result"],
        }
        return row | health_columns(conn, self._sql.previous_in_chain, interaction, row)

    def _count_day(
        self, conn: Connection, day: date, calls: int, cost: float | None, tokens: int
    ) -> None:
        """Add to the day's counters in one statement: two workers writing a day's first
        rows at once must not both insert it (the loser's whole transaction, its audit row
        with it, would roll back)."""
        values = {"day": day, "calls": calls, "cost_usd": cost or 0.0, "tokens": tokens}
        if self._sql.add_day is not None:
            conn.execute(self._sql.add_day, values)
            return
        days = self.tables["days"]
        changes = {
            "calls": days.c.calls + calls,
            "cost_usd": days.c.cost_usd + (cost or 0.0),
            "tokens": days.c.tokens + tokens,
        }
        updated = conn.execute(days.update().where(days.c.day == day).values(**changes))
        if updated.rowcount == 0:
            conn.execute(days.insert().values(**values))

    def _insert(self, conn: Connection, interaction: Interaction, *, replace: bool) -> bool:
        sql = self._sql
        row = self._row(interaction, conn)
        old = conn.execute(sql.old_row, {"old_envelope_id": row["envelope_id"]}).first()
        if old is not None:
            if not replace:
                return False
            conn.execute(sql.delete_row, {"row_id": old.id})
            self._count_day(conn, old.day, -1, -(old.cost_usd or 0.0), -int(old.tokens))
            sql.summaries.remove(conn, old)
        conn.execute(sql.insert_row, row)
        self._count_day(conn, row["day"], 1, row["cost_usd"], row["tokens"])
        sql.summaries.add(conn, row)
        # Settle: the call's reservation (keyed by its envelope id) becomes this row.
        conn.execute(sql.settle, {"reservation_id": row["envelope_id"]})
        return True

    def append(self, interaction: Interaction) -> None:
        self._write("record", lambda conn: self._insert(conn, interaction, replace=True))

    def import_interactions(self, interactions: Iterable[Interaction], batch: int = 500) -> int:
        """Add the interactions whose envelope id is not stored yet; how many were added."""
        return self._import(interactions, batch, self._insert_new)

    def _insert_new(self, conn: Connection, interaction: Interaction) -> bool:
        return self._insert(conn, interaction, replace=False)

    def import_events(self, events: Iterable[AuditEvent], batch: int = 500) -> int:
        """Add the events whose event id is not stored yet; how many were added."""
        return self._import(events, batch, self._insert_event_new)

    def _import(
        self, records: Iterable[Any], batch: int, insert: Callable[[Connection, Any], bool]
    ) -> int:
        added = 0
        chunk: list[Any] = []

        def flush(conn: Connection) -> int:
            return sum(1 for record in chunk if insert(conn, record))

        for record in records:
            chunk.append(record)
            if len(chunk) >= batch:
                added += self._write("import", flush)
                chunk.clear()
        if chunk:
            added += self._write("import", flush)
        return added

    def _event_row(self, event: AuditEvent) -> dict[str, Any]:
        return {
            "event_id": event.event_id,
            "trace_id": event.trace_id,
            "name": event.name[:100],
            "operation": event.operation[:250],
            "timestamp": utc(event.timestamp),
            "data": event.model_dump(mode="json"),
        }

    def _insert_event_new(self, conn: Connection, event: AuditEvent) -> bool:
        t = self.tables["events"]
        exists = conn.execute(sa.select(t.c.seq).where(t.c.event_id == event.event_id)).first()
        if exists is not None:
            return False
        conn.execute(t.insert().values(**self._event_row(event)))
        return True

    def append_event(self, event: AuditEvent) -> None:
        t = self.tables["events"]
        self._write("event", lambda conn: conn.execute(t.insert().values(**self._event_row(event))))

    # ---- reading

    @staticmethod
    def _interaction(row: Any) -> Interaction | None:
        data = {
            "kind": "interaction",
            "v": row.v,
            "envelope": row.envelope,
            "result": row.result,
            "recorded_at": aware(row.recorded_at).isoformat(),
        }
        return load_record(Interaction, data)

    def _interactions(self, query: sa.Select[Any]) -> list[Interaction]:
        with self._read() as conn:
            rows = conn.execute(query).all()
        return [item for row in rows if (item := self._interaction(row)) is not None]

    def _select(self) -> sa.Select[Any]:
        t = self.tables["interactions"]
        return sa.select(t.c.v, t.c.envelope, t.c.result, t.c.recorded_at)

    def iter_all(self, since: datetime | None = None) -> Iterator[Interaction]:
        t = self.tables["interactions"]
        query = self._select().order_by(t.c.id)
        if since is not None:
            query = query.where(t.c.recorded_at >= utc(since))
        return self._paged(query, t.c.id)

    def _paged(self, query: sa.Select[Any], key: sa.Column[Any], page: int = 2000) -> Iterator[Any]:
        """Rows in pages, so a large store is never read into memory at once."""
        last: Any = None
        while True:
            q = query.add_columns(key.label("_key")).limit(page)
            if last is not None:
                q = q.where(key > last)
            with self._read() as conn:
                rows = conn.execute(q).all()
            for row in rows:
                record = self._load_row(row)
                if record is not None:
                    yield record
            if len(rows) < page:
                return
            last = rows[-1]._key

    def _load_row(self, row: Any) -> Any:
        if hasattr(row, "envelope"):
            return self._interaction(row)
        return load_record(AuditEvent, row.data)

    def iter_events(self, since: datetime | None = None) -> Iterator[AuditEvent]:
        t = self.tables["events"]
        query = sa.select(t.c.data).order_by(t.c.seq)
        if since is not None:
            query = query.where(t.c.timestamp >= utc(since))
        return self._paged(query, t.c.seq)

    def events(self, trace_id: str) -> list[AuditEvent]:
        t = self.tables["events"]
        query = sa.select(t.c.data).where(t.c.trace_id == trace_id).order_by(t.c.seq)
        with self._read() as conn:
            rows = conn.execute(query).all()
        return [event for row in rows if (event := load_record(AuditEvent, row.data))]

    def get(self, envelope_id: str) -> Interaction | None:
        t = self.tables["interactions"]
        found = self._interactions(self._select().where(t.c.envelope_id == envelope_id))
        return found[0] if found else None

    def by_trace(self, trace_id: str) -> list[Interaction]:
        t = self.tables["interactions"]
        return self._interactions(self._select().where(t.c.trace_id == trace_id).order_by(t.c.id))

    def recent(self, n: int, *, min_attempt: int = 1) -> list[Interaction]:
        if n <= 0:
            return []
        t = self.tables["interactions"]
        query = self._select().order_by(t.c.id.desc()).limit(n)
        if min_attempt > 1:
            query = query.where(t.c.attempt >= min_attempt)
        return self._interactions(query)

    def failures(
        self, limit: int | None = None, since: datetime | None = None
    ) -> list[Interaction]:
        t = self.tables["interactions"]
        query = self._select().where(t.c.success.is_(False)).order_by(t.c.id.desc())
        if since is not None:
            query = query.where(t.c.recorded_at >= utc(since))
        if limit is not None:
            query = query.limit(limit)
        return self._interactions(query)

    def runs(self, query: RunQuery) -> RunPage:
        with self._read() as conn:
            return select_runs(conn, self.tables, query)

    def health(self, query: HealthQuery) -> Health:
        with self._read() as conn:
            found = select_health(conn, self.tables["interactions"], query)
        return found if found is not None else super().health(query)

    def usage(self, trace_id: str | None = None, since: datetime | None = None) -> Usage:
        with self._read() as conn:
            return self._usage(conn, trace_id, since)

    def _usage(self, conn: Connection, trace_id: str | None, since: datetime | None) -> Usage:
        t, days = self.tables["interactions"], self.tables["days"]
        if trace_id is None and since is not None and _midnight(since):
            # Whole UTC days: the per-day counters, one row a day.
            query = sa.select(
                sa.func.coalesce(sa.func.sum(days.c.calls), 0),
                sa.func.coalesce(sa.func.sum(days.c.cost_usd), 0.0),
                sa.func.coalesce(sa.func.sum(days.c.tokens), 0),
            ).where(days.c.day >= utc(since).date())
        else:
            query = sa.select(
                sa.func.count(),
                sa.func.coalesce(sa.func.sum(t.c.cost_usd), 0.0),
                sa.func.coalesce(sa.func.sum(t.c.tokens), 0),
            )
            if trace_id is not None:
                query = query.where(t.c.trace_id == trace_id)
            if since is not None:
                query = query.where(t.c.recorded_at >= utc(since))
        calls, cost, tokens = conn.execute(query).one()
        return Usage(calls=int(calls), cost_usd=float(cost), tokens=int(tokens))

    # ---- budget reservations (autofix.audit.budget)

    def reserve(
        self,
        trace_id: str,
        check: Callable[[Usage, Usage], None],
        *,
        now: datetime,
        ttl_seconds: float,
        hostname: str | None = None,
        reservation_id: str | None = None,
    ) -> str:
        """Check the budgets and reserve one call, atomically across every worker.

        In one transaction under a lock (PostgreSQL: an advisory lock; SQLite: BEGIN
        IMMEDIATE; others: the day's counter row FOR UPDATE): count the settled spend plus the
        live reservations of this run and this day, hand them to ``check`` (run, day), which
        raises BudgetExhaustedError when a limit is reached; else insert the reservation. Its id is the envelope id of the call; ``append``
        of that envelope settles it. Returns the id.
        """
        rid = reservation_id or new_id()
        moment = utc(now)

        def work(conn: Connection) -> str:
            self._fast_commit(conn)
            self._lock_budget(conn, moment.date())
            conn.execute(self._sql.expire, {"moment": moment})
            run, day = self._live_usage(conn, trace_id, moment)
            check(run, day)
            conn.execute(
                self._sql.insert_reservation,
                {
                    "id": rid,
                    "trace_id": trace_id,
                    "day": moment.date(),
                    "hostname": _short(hostname, 250),
                    "created_at": moment,
                    "expires_at": moment + timedelta(seconds=ttl_seconds),
                },
            )
            return rid

        reserved: str = self._write("reservation of a budgeted call", work)
        return reserved

    def release(self, reservation_id: str) -> None:
        """Drop a reservation whose call never ran."""

        def work(conn: Connection) -> None:
            self._fast_commit(conn)
            conn.execute(self._sql.settle, {"reservation_id": reservation_id})

        self._write("reservation", work)

    def _fast_commit(self, conn: Connection) -> None:
        """PostgreSQL: a reservation's commit does not wait for the disk (4 ms here). The lock
        and what other workers see are unchanged; only a crash of the database server itself
        could drop the newest reservations, calls then in flight (docs/deployment.md)."""
        if self.dialect == "postgresql":
            conn.execute(sa.text("SET LOCAL synchronous_commit = off"))

    def _lock_budget(self, conn: Connection, day: date) -> None:
        if self.dialect == "postgresql":
            conn.execute(sa.select(sa.func.pg_advisory_xact_lock(_PG_BUDGET_LOCK)))
        elif self.dialect != "sqlite":  # SQLite: BEGIN IMMEDIATE already holds the write lock
            days = self.tables["days"]
            if conn.execute(sa.select(days.c.day).where(days.c.day == day)).first() is None:
                conn.execute(days.insert().values(day=day, calls=0, cost_usd=0.0, tokens=0))
            conn.execute(sa.select(days.c.day).where(days.c.day == day).with_for_update())

    def _live_usage(self, conn: Connection, trace_id: str, moment: datetime) -> tuple[Usage, Usage]:
        """Settled spend plus live reservations (one call each, no cost yet), run and day."""
        params = {"trace_id": trace_id, "moment": moment, "today": moment.date()}
        row = conn.execute(self._sql.live_usage, params).one()
        run = Usage(calls=int(row[0]) + int(row[3]), cost_usd=float(row[1]), tokens=int(row[2]))
        day = Usage(calls=int(row[4]) + int(row[7]), cost_usd=float(row[5]), tokens=int(row[6]))
        return run, day

    def live_reservations(self, now: datetime) -> int:
        r = self.tables["reservations"]
        with self._read() as conn:
            query = sa.select(sa.func.count()).select_from(r).where(r.c.expires_at > utc(now))
            return int(conn.execute(query).scalar() or 0)
