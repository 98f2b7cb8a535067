"""The runs page as one grouped, indexed SQL query (SqlStore.runs), and the page's lists of
agents, operations and failure kinds in a second one over its own runs only."""

from __future__ import annotations

from collections import defaultdict
from datetime import UTC
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from autofix.audit.envelope import aware
from autofix.audit.runs import RunPage, RunQuery, RunRow


def _utc(moment: Any) -> Any:
    return aware(moment).astimezone(UTC)


def _int(flag: Any) -> Any:
    return sa.case((flag, 1), else_=0)


def select_runs(conn: Connection, t: sa.Table, query: RunQuery) -> RunPage:
    where: list[Any] = []
    if query.dag_ids is not None:
        where.append(t.c.dag_id.in_(sorted(query.dag_ids)) if query.dag_ids else sa.false())
    if query.dag_id is not None:
        where.append(t.c.dag_id == query.dag_id)
    if query.since is not None:
        where.append(t.c.recorded_at >= _utc(query.since))
    if query.until is not None:
        where.append(t.c.recorded_at <= _utc(query.until))
    calls = sa.func.sum(_int(t.c.attempt == 1))
    succeeded = sa.func.sum(_int(t.c.success.is_(True)))
    having: list[Any] = []
    for column, wanted in (
        (t.c.agent, query.agent),
        (t.c.operation, query.operation),
        (t.c.failure_kind, query.failure_kind),
    ):
        if wanted is not None:
            having.append(sa.func.sum(_int(column == wanted)) > 0)
    if query.status == "succeeded":
        having.append(succeeded >= calls)
    elif query.status == "failed":
        having.append(succeeded < calls)
    last_at = sa.func.max(t.c.recorded_at)
    grouped = (
        sa.select(
            t.c.dag_id,
            t.c.trace_id,
            calls.label("calls"),
            sa.func.count().label("attempts"),
            succeeded.label("succeeded"),
            sa.func.coalesce(sa.func.sum(t.c.cost_usd), 0.0).label("cost_usd"),
            sa.func.coalesce(sa.func.sum(t.c.tokens), 0).label("tokens"),
            sa.func.min(t.c.recorded_at).label("first_at"),
            last_at.label("last_at"),
        )
        .where(*where)
        .group_by(t.c.dag_id, t.c.trace_id)
        .having(*having)
    )
    total = conn.execute(sa.select(sa.func.count()).select_from(grouped.subquery())).scalar()
    page = conn.execute(
        grouped.order_by(last_at.desc(), t.c.trace_id).offset(query.offset).limit(query.limit)
    ).all()
    lists = _lists(conn, t, [(row.dag_id, row.trace_id) for row in page], where)
    rows = [
        RunRow(
            dag_id=row.dag_id,
            run_id=row.trace_id,
            calls=int(row.calls or 0),
            attempts=int(row.attempts),
            succeeded=int(row.succeeded or 0),
            retries=int(row.attempts) - int(row.calls or 0),
            cost_usd=float(row.cost_usd or 0.0),
            tokens=int(row.tokens or 0),
            first_at=aware(row.first_at),
            last_at=aware(row.last_at),
            **lists.get((row.dag_id, row.trace_id), {}),
        )
        for row in page
    ]
    return RunPage(total=int(total or 0), rows=rows)


def _lists(
    conn: Connection, t: sa.Table, runs: list[tuple[str | None, str]], where: list[Any]
) -> dict[tuple[str | None, str], dict[str, tuple[str, ...]]]:
    """The agents, operations and failure kinds of the page's runs, in first-seen order."""
    if not runs:
        return {}
    rows = conn.execute(
        sa.select(t.c.dag_id, t.c.trace_id, t.c.agent, t.c.operation, t.c.failure_kind)
        .where(t.c.trace_id.in_({run_id for _, run_id in runs}), *where)
        .group_by(t.c.dag_id, t.c.trace_id, t.c.agent, t.c.operation, t.c.failure_kind)
        .order_by(sa.func.min(t.c.id))
    ).all()
    found: dict[tuple[str | None, str], dict[str, dict[str, None]]] = defaultdict(
        lambda: {"agents": {}, "operations": {}, "failure_kinds": {}}
    )
    for row in rows:
        lists = found[(row.dag_id, row.trace_id)]
        for name, value in (
            ("agents", row.agent),
            ("operations", row.operation),
            ("failure_kinds", row.failure_kind),
        ):
            if value:
                lists[name][value] = None
    return {
        key: {name: tuple(values) for name, values in lists.items()} for key, lists in found.items()
    }
