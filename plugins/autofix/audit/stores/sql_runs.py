"""The SQL store's run summaries: one ``autofix_runs`` row per DAG run, its attempts summed as
they are appended, and the agents, operations and failure kinds it used (``autofix_run_facets``).
The runs page (SqlStore.runs) reads these with an index on the last call, never every attempt.
``rebuild_runs`` makes them again from the attempts (the schema migration, a bulk load)."""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.engine import Connection

from autofix.audit.envelope import aware, utc
from autofix.audit.runs import RunPage, RunQuery, RunRow

FACET_COLUMNS = ("agent", "operation", "failure_kind")


def _int(flag: Any) -> Any:
    return sa.case((flag, 1), else_=0)


class RunSummaries:
    """The statements that keep a run's summary as its attempts are appended, built once."""

    def __init__(self, tables: dict[str, sa.Table], dialect: str) -> None:
        runs, facets = tables["runs"], tables["run_facets"]
        self.runs, self.facets = runs, facets
        self.dialect = dialect
        self.upsert: Any = None
        self.add_facet: Any = None
        if dialect in ("postgresql", "sqlite"):
            make = postgresql_insert if dialect == "postgresql" else sqlite_insert
            new = make(runs)
            earlier = sa.case(
                (new.excluded.first_at < runs.c.first_at, new.excluded.first_at),
                else_=runs.c.first_at,
            )
            later = sa.case(
                (new.excluded.last_at > runs.c.last_at, new.excluded.last_at),
                else_=runs.c.last_at,
            )
            summed = {
                name: getattr(runs.c, name) + getattr(new.excluded, name)
                for name in ("calls", "attempts", "succeeded", "cost_usd", "tokens")
            }
            self.upsert = new.on_conflict_do_update(
                index_elements=[runs.c.trace_id, runs.c.dag_id],
                set_={**summed, "first_at": earlier, "last_at": later},
            ).returning(runs.c.id)
            self.add_facet = make(facets).on_conflict_do_nothing()
        self.find = sa.select(runs.c.id).where(
            runs.c.dag_id == sa.bindparam("key_dag"), runs.c.trace_id == sa.bindparam("key_trace")
        )

    @staticmethod
    def _sums(row: dict[str, Any], sign: int) -> dict[str, Any]:
        return {
            "calls": sign * (row["attempt"] == 1),
            "attempts": sign,
            "succeeded": sign * bool(row["success"]),
            "cost_usd": sign * (row["cost_usd"] or 0.0),
            "tokens": sign * int(row["tokens"]),
        }

    def add(self, conn: Connection, row: dict[str, Any]) -> None:
        """Count one appended attempt (a row of ``autofix_interactions``) into its run."""
        values = {
            "dag_id": row["dag_id"] or "",
            "trace_id": row["trace_id"],
            "first_at": row["recorded_at"],
            "last_at": row["recorded_at"],
            **self._sums(row, 1),
        }
        if self.upsert is not None:
            run_id = conn.execute(self.upsert, values).scalar_one()
        else:  # another dialect: look up, then update or insert (its writers are serialised)
            run_id = conn.execute(
                self.find, {"key_dag": values["dag_id"], "key_trace": values["trace_id"]}
            ).scalar()
            if run_id is None:
                inserted = conn.execute(self.runs.insert().values(**values)).inserted_primary_key
                run_id = inserted[0] if inserted else None
            else:
                self._shift(conn, run_id, values)
        wanted = [
            {"run": run_id, "kind": name, "value": str(row[name])[:250]}
            for name in FACET_COLUMNS
            if row[name]
        ]
        if self.add_facet is not None:
            conn.execute(self.add_facet, wanted)
            return
        for facet in wanted:
            found = conn.execute(
                sa.select(self.facets.c.run).where(
                    *(getattr(self.facets.c, key) == value for key, value in facet.items())
                )
            ).first()
            if found is None:
                conn.execute(self.facets.insert().values(**facet))

    def remove(self, conn: Connection, old: Any) -> None:
        """Take a replaced attempt out of its run's sums (its facets stay: they only widen)."""
        run_id = conn.execute(
            self.find, {"key_dag": old.dag_id or "", "key_trace": old.trace_id}
        ).scalar()
        if run_id is not None:
            self._shift(conn, run_id, self._sums(old._mapping, -1))

    def _shift(self, conn: Connection, run_id: int, values: dict[str, Any]) -> None:
        runs = self.runs
        changes: dict[str, Any] = {
            name: getattr(runs.c, name) + values[name]
            for name in ("calls", "attempts", "succeeded", "cost_usd", "tokens")
        }
        if "last_at" in values:
            changes["first_at"] = sa.case(
                (runs.c.first_at > values["first_at"], values["first_at"]), else_=runs.c.first_at
            )
            changes["last_at"] = sa.case(
                (runs.c.last_at < values["last_at"], values["last_at"]), else_=runs.c.last_at
            )
        conn.execute(runs.update().where(runs.c.id == run_id).values(**changes))


def rebuild_runs(conn: Connection, tables: dict[str, sa.Table]) -> None:
    """The run summaries again from every stored attempt, in three statements."""
    t, runs, facets = tables["interactions"], tables["runs"], tables["run_facets"]
    conn.execute(facets.delete())
    conn.execute(runs.delete())
    dag = sa.func.coalesce(t.c.dag_id, "")
    summed = sa.select(
        dag,
        t.c.trace_id,
        sa.func.sum(_int(t.c.attempt == 1)),
        sa.func.count(),
        sa.func.sum(_int(t.c.success.is_(True))),
        sa.func.coalesce(sa.func.sum(t.c.cost_usd), 0.0),
        sa.func.coalesce(sa.func.sum(t.c.tokens), 0),
        sa.func.min(t.c.recorded_at),
        sa.func.max(t.c.recorded_at),
    ).group_by(dag, t.c.trace_id)
    columns = ["dag_id", "trace_id", "calls", "attempts", "succeeded", "cost_usd", "tokens"]
    conn.execute(runs.insert().from_select([*columns, "first_at", "last_at"], summed))
    joined = t.join(runs, sa.and_(runs.c.dag_id == dag, runs.c.trace_id == t.c.trace_id))
    for name in FACET_COLUMNS:
        column = getattr(t.c, name)
        picked = (
            sa.select(runs.c.id, sa.literal(name), sa.func.substr(column, 1, 250))
            .select_from(joined)
            .where(column.is_not(None), column != "")
            .distinct()
        )
        conn.execute(facets.insert().from_select(["run", "kind", "value"], picked))


def select_runs(conn: Connection, tables: dict[str, sa.Table], query: RunQuery) -> RunPage:
    runs, facets = tables["runs"], tables["run_facets"]
    where: list[Any] = []
    if query.dag_ids is not None:
        where.append(runs.c.dag_id.in_(sorted(query.dag_ids)) if query.dag_ids else sa.false())
    if query.dag_id is not None:
        where.append(runs.c.dag_id == query.dag_id)
    if query.since is not None:
        where.append(runs.c.last_at >= utc(query.since))
    if query.until is not None:
        where.append(runs.c.first_at <= utc(query.until))
    if query.outcome == "all_valid":
        where.append(runs.c.succeeded >= runs.c.calls)
    elif query.outcome == "had_failures":
        where.append(runs.c.succeeded < runs.c.calls)
    for name in FACET_COLUMNS:
        wanted = getattr(query, name)
        if wanted is not None:
            # From the facet's index to the runs: a probe per matching run, not per run.
            where.append(
                runs.c.id.in_(
                    sa.select(facets.c.run).where(facets.c.kind == name, facets.c.value == wanted)
                )
            )
    total = conn.execute(sa.select(sa.func.count()).select_from(runs).where(*where)).scalar()
    page = conn.execute(
        sa.select(runs)
        .where(*where)
        .order_by(runs.c.last_at.desc(), runs.c.id.desc())
        .offset(query.offset)
        .limit(query.limit)
    ).all()
    lists: dict[int, dict[str, list[str]]] = {
        row.id: {n: [] for n in FACET_COLUMNS} for row in page
    }
    if lists:
        for facet in conn.execute(
            sa.select(facets).where(facets.c.run.in_(list(lists))).order_by(facets.c.value)
        ):
            lists[facet.run][facet.kind].append(facet.value)
    rows = [
        RunRow(
            dag_id=row.dag_id or None,
            run_id=row.trace_id,
            calls=int(row.calls),
            attempts=int(row.attempts),
            succeeded=int(row.succeeded),
            retries=int(row.attempts) - int(row.calls),
            cost_usd=float(row.cost_usd),
            tokens=int(row.tokens),
            first_at=aware(row.first_at),
            last_at=aware(row.last_at),
            agents=tuple(lists[row.id]["agent"]),
            operations=tuple(lists[row.id]["operation"]),
            failure_kinds=tuple(lists[row.id]["failure_kind"]),
        )
        for row in page
    ]
    return RunPage(total=int(total or 0), rows=rows)
