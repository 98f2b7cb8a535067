"""DAG runs as the audit store sees them: one row per run that made agent calls, filtered and
paged (the UI's runs list), and the scan every store can answer it with."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Literal

from autofix.audit.envelope import Interaction, aware

# all_valid: every agent call of the run ended valid; had_failures: one did not (a call that
# failed and was retried by Airflow counts: the run's own state is Airflow's to say).
RunOutcome = Literal["all_valid", "had_failures"]
MAX_PAGE = 200
_CAUSATION_RE = re.compile(r"^(?P<dag>[^.#]+)\.(?P<task>[^#]+)#try\d+$")


def dag_and_task_of(causation_id: str | None) -> tuple[str | None, str | None]:
    """``dag.task#tryN`` (a task's first call, before envelopes named their task) → (dag, task)."""
    match = _CAUSATION_RE.match(causation_id or "")
    return (match["dag"], match["task"]) if match else (None, None)


@dataclass(frozen=True)
class RunQuery:
    """Which runs: ``dag_ids`` are the DAGs the reader may see (None: every DAG); the other
    fields narrow it. A run matches ``agent``/``operation``/``failure_kind`` when one of its
    attempts does, and ``since``/``until`` when it made calls in that window (its sums are the
    whole run's)."""

    dag_ids: frozenset[str] | None = None
    dag_id: str | None = None
    agent: str | None = None
    operation: str | None = None
    outcome: RunOutcome | None = None
    failure_kind: str | None = None
    since: datetime | None = None
    until: datetime | None = None
    offset: int = 0
    limit: int = 50

    def __post_init__(self) -> None:
        object.__setattr__(self, "offset", max(0, self.offset))
        object.__setattr__(self, "limit", min(max(1, self.limit), MAX_PAGE))


@dataclass(frozen=True)
class RunRow:
    """One DAG run's agent calls, summed. ``calls`` counts first attempts, ``succeeded`` the
    calls whose last attempt succeeded, ``retries`` every attempt after a first."""

    dag_id: str | None
    run_id: str
    calls: int
    attempts: int
    succeeded: int
    retries: int
    cost_usd: float
    tokens: int
    first_at: datetime
    last_at: datetime
    agents: tuple[str, ...] = ()
    operations: tuple[str, ...] = ()
    failure_kinds: tuple[str, ...] = ()

    @property
    def outcome(self) -> RunOutcome:
        return "all_valid" if self.succeeded >= self.calls else "had_failures"

    @property
    def success_rate(self) -> float:
        return self.succeeded / self.calls if self.calls else 0.0


@dataclass(frozen=True)
class RunPage:
    total: int
    rows: list[RunRow] = field(default_factory=list)


@dataclass
class _Sums:
    dag_id: str | None
    run_id: str
    first_at: datetime
    last_at: datetime
    calls: int = 0
    attempts: int = 0
    succeeded: int = 0
    cost_usd: float = 0.0
    tokens: int = 0
    agents: set[str] = field(default_factory=set)
    operations: set[str] = field(default_factory=set)
    failure_kinds: set[str] = field(default_factory=set)

    def add(self, item: Interaction) -> None:
        result = item.result
        moment = aware(item.recorded_at)
        self.first_at, self.last_at = min(self.first_at, moment), max(self.last_at, moment)
        self.attempts += 1
        self.calls += item.attempt == 1
        self.succeeded += result.success
        self.cost_usd += result.cost_usd or 0.0
        self.tokens += result.total_tokens
        if item.envelope.agent_id:
            self.agents.add(item.envelope.agent_id)
        self.operations.add(item.operation)
        if result.failure_kind is not None:
            self.failure_kinds.add(result.failure_kind.value)

    def row(self) -> RunRow:
        return RunRow(
            dag_id=self.dag_id,
            run_id=self.run_id,
            calls=self.calls,
            attempts=self.attempts,
            succeeded=self.succeeded,
            retries=self.attempts - self.calls,
            cost_usd=self.cost_usd,
            tokens=self.tokens,
            first_at=self.first_at,
            last_at=self.last_at,
            agents=tuple(sorted(self.agents)),
            operations=tuple(sorted(self.operations)),
            failure_kinds=tuple(sorted(self.failure_kinds)),
        )


def dag_of(item: Interaction, known: dict[str, str | None]) -> str | None:
    """The DAG of an attempt: its envelope's, else its first attempt's causation (``known``
    maps the envelope ids seen so far to their DAG)."""
    envelope = item.envelope
    dag_id = envelope.dag_id or dag_and_task_of(envelope.causation_id)[0]
    if dag_id is None and envelope.causation_id:
        dag_id = known.get(envelope.causation_id)
    known[envelope.envelope_id] = dag_id
    return dag_id


def _matches(row: RunRow, query: RunQuery) -> bool:
    if query.dag_ids is not None and row.dag_id not in query.dag_ids:
        return False
    if query.dag_id is not None and row.dag_id != query.dag_id:
        return False
    if query.since is not None and row.last_at < aware(query.since):
        return False
    if query.until is not None and row.first_at > aware(query.until):
        return False
    if query.outcome is not None and row.outcome != query.outcome:
        return False
    picks = (
        (query.agent, row.agents),
        (query.operation, row.operations),
        (query.failure_kind, row.failure_kinds),
    )
    return all(wanted is None or wanted in values for wanted, values in picks)


def scan_runs(interactions: Iterable[Interaction], query: RunQuery) -> RunPage:
    """The runs page from every interaction in recorded order (stores without an index)."""
    sums: dict[tuple[str | None, str], _Sums] = {}
    known: dict[str, str | None] = {}
    for item in interactions:
        dag_id = dag_of(item, known)
        moment = aware(item.recorded_at)
        key = (dag_id, item.trace_id)
        run = sums.get(key)
        if run is None:
            run = sums[key] = _Sums(dag_id, item.trace_id, moment, moment)
        run.add(item)
    rows = [row for run in sums.values() if _matches(row := run.row(), query)]
    rows.sort(key=lambda row: row.last_at, reverse=True)
    return RunPage(total=len(rows), rows=rows[query.offset : query.offset + query.limit])
