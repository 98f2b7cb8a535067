"""The health page as a few grouped SQL queries over the health indexes (SqlStore.health), and
an attempt's health facts as it is written (its chain is read from the row before it)."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from autofix.audit.envelope import Interaction, aware, utc
from autofix.audit.health import (
    Bucket,
    ChainLink,
    Health,
    HealthFacts,
    HealthGroup,
    HealthQuery,
    HealthTally,
    RecurringError,
    chain_link,
    retry_health,
)


def previous_in_chain(t: sa.Table) -> sa.Select[Any]:
    """The last attempt written before this one with its DAG, run and operation."""
    return (
        sa.select(t.c.attempt, t.c.chain_step, t.c.chain_categories)
        .where(
            t.c.trace_id == sa.bindparam("chain_trace_id", type_=sa.String()),
            t.c.operation == sa.bindparam("chain_operation", type_=sa.String()),
            t.c.dag_id.is_not_distinct_from(sa.bindparam("chain_dag_id", type_=sa.String())),
            t.c.envelope_id != sa.bindparam("chain_envelope_id", type_=sa.String()),
        )
        .order_by(t.c.id.desc())
        .limit(1)
    )


def health_columns(
    conn: Connection, previous: sa.Select[Any], interaction: Interaction, row: dict[str, Any]
) -> dict[str, Any]:
    """The health columns of ``row`` (its plain columns already set). A first attempt starts
    its chain: only a retry looks for the attempt before it."""
    link = None
    if interaction.attempt > 1:
        params = {
            "chain_trace_id": row["trace_id"],
            "chain_operation": row["operation"],
            "chain_dag_id": row["dag_id"],
            "chain_envelope_id": row["envelope_id"],
        }
        found = conn.execute(previous, params).first()
        if found is not None and found.chain_step is not None:
            link = ChainLink(found.attempt, found.chain_step, found.chain_categories)
    return HealthFacts.of(interaction, chain_link(interaction, link)).columns()


def _bucket(t: sa.Table, bucket: Bucket, dialect: str) -> Any:
    if bucket == "day":
        return t.c.day
    if dialect == "sqlite":  # stored as "YYYY-MM-DD HH:MM:SS.ffffff", in UTC
        return sa.func.substr(t.c.recorded_at, 1, 13)
    if dialect == "postgresql":
        return sa.func.date_trunc("hour", sa.func.timezone("UTC", t.c.recorded_at))
    return None


def _start(value: Any) -> datetime:
    if isinstance(value, datetime):
        return aware(value).astimezone(UTC)
    if isinstance(value, date):
        return datetime(value.year, value.month, value.day, tzinfo=UTC)
    return datetime.fromisoformat(f"{value}:00").replace(tzinfo=UTC)  # "YYYY-MM-DD HH"


def select_health(conn: Connection, t: sa.Table, query: HealthQuery) -> Health | None:
    """None: this database cannot bucket by the hour here (the caller scans instead)."""
    bucket = _bucket(t, query.bucket, conn.dialect.name)
    if bucket is None:
        return None
    tally = HealthTally(query)
    dags = query.dags()
    if not dags:
        return tally.health(retry_health([], query.alert))
    in_dags = t.c.dag_id.in_(sorted(dags))
    where: list[Any] = [in_dags]
    if query.since is not None:
        where.append(t.c.recorded_at >= utc(query.since))
    if query.until is not None:
        where.append(t.c.recorded_at <= utc(query.until))
    _attempts(conn, t, bucket, query, tally)
    _errors(conn, t, where, tally, query.top)
    _noise(conn, t, where, tally)
    return tally.health(retry_health(_latest_retries(conn, t, in_dags, query), query.alert))


def _day_ranges(t: sa.Table, query: HealthQuery) -> list[list[Any]]:
    """The window as ranges of the health index: its first and last days, where the time of
    each attempt is compared, and the whole days between, where only the day is."""
    since = utc(query.since) if query.since is not None else None
    until = utc(query.until) if query.until is not None else None
    if since is not None and until is not None and since.date() == until.date():
        return [[t.c.day == since.date(), t.c.recorded_at >= since, t.c.recorded_at <= until]]
    ranges, between = [], []
    if since is not None:
        ranges.append([t.c.day == since.date(), t.c.recorded_at >= since])
        between.append(t.c.day > since.date())
    if until is not None:
        ranges.append([t.c.day == until.date(), t.c.recorded_at <= until])
        between.append(t.c.day < until.date())
    return [*ranges, between]


def _attempts(
    conn: Connection,
    t: sa.Table,
    bucket: Any,
    query: HealthQuery,
    tally: HealthTally,
) -> None:
    """Passes over the health index, one per range of days: attempts per bucket and group,
    with their cost; by the day, the sums stream out in index order with no sort."""
    # The DAGs as an expression: SQLite, without statistics, would rather seek them in another
    # index and read every wide row.
    in_dags = sa.func.coalesce(t.c.dag_id, "").in_(sorted(query.dags()))
    starts: dict[Any, datetime] = {}
    groups: dict[str, HealthGroup] = {}
    for days in _day_ranges(t, query):
        rows = (
            sa.select(bucket.label("start"), t.c.health_group.label("group_key"), t.c.cost_usd)
            .where(in_dags, *days, t.c.health_group.is_not(None))
            .subquery()
        )
        grouped = sa.select(
            rows.c.start,
            rows.c.group_key,
            sa.func.count().label("n"),
            sa.func.sum(rows.c.cost_usd).label("cost_usd"),
        ).group_by(rows.c.start, rows.c.group_key)
        for row in conn.execute(grouped):
            start = starts.get(row.start) or starts.setdefault(row.start, _start(row.start))
            group = groups.get(row.group_key)
            if group is None:
                group = groups[row.group_key] = HealthGroup.read(row.group_key)
            tally.add(start, group, count=int(row.n), cost_usd=float(row.cost_usd or 0.0))


# The alert's latest retries are looked for in the last day first, then further back: one day
# of the index usually holds them all.
LOOKBACK = (timedelta(days=1), timedelta(days=7), timedelta(days=30), None)


def _latest_retries(conn: Connection, t: sa.Table, in_dags: Any, query: HealthQuery) -> list[bool]:
    """Whether each of the newest retries up to ``until`` came back valid, newest first."""
    retries = sa.select(t.c.valid).where(in_dags, t.c.attempt >= 2)
    end = utc(query.until) if query.until is not None else datetime.now(UTC)
    if query.until is not None:
        retries = retries.where(t.c.recorded_at <= end)
    newest = retries.order_by(t.c.recorded_at.desc(), t.c.id.desc()).limit(query.alert.window)
    found: list[bool] = []
    for back in LOOKBACK:
        # Everything after the cutoff is read, so the newest are among what is found.
        bounded = newest if back is None else newest.where(t.c.recorded_at > end - back)
        found = [bool(valid) for (valid,) in conn.execute(bounded)]
        if len(found) >= query.alert.window:
            break
    return found


def _errors(conn: Connection, t: sa.Table, where: list[Any], tally: HealthTally, top: int) -> None:
    count, last = sa.func.count(), sa.func.max(t.c.recorded_at)
    ranked = conn.execute(
        sa.select(t.c.error_key, count.label("n"), last.label("last"))
        .where(*where, t.c.error_key.is_not(None))
        .group_by(t.c.error_key)
        .order_by(count.desc(), last.desc(), t.c.error_key)
        .limit(top)
    ).all()
    # The latest occurrence of each: the attempts at those instants (the recorded_at index),
    # the last one written wins a tie.
    instants = {seen for _, _, seen in ranked}
    latest: dict[tuple[str, datetime], Any] = {}
    if instants:
        for row in conn.execute(
            sa.select(t.c.error_key, t.c.recorded_at, t.c.dag_id, t.c.trace_id)
            .where(*where, t.c.recorded_at.in_(sorted(instants)))
            .order_by(t.c.id)
        ):
            latest[(row.error_key, row.recorded_at)] = row
    for key, n, seen in ranked:
        example = latest[(key, seen)]
        occurrence = RecurringError(key, int(n), aware(seen), example.dag_id, example.trace_id)
        tally.add_error(key, int(n), occurrence)


def _noise(conn: Connection, t: sa.Table, where: list[Any], tally: HealthTally) -> None:
    rows = conn.execute(
        sa.select(t.c.rules, sa.func.count(), sa.func.sum(t.c.noise_lines))
        .where(*where, sa.or_(t.c.rules.is_not(None), t.c.noise_lines > 0))
        .group_by(t.c.rules)
    )
    for rules, n, lines in rows:
        tally.add_noise(rules, int(n), int(lines or 0))
