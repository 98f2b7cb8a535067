"""The audit store contract: the AuditStore query API, Usage, and helpers every store shares."""

from __future__ import annotations

import logging
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from datetime import datetime
from typing import Any, TypeVar

from autofix.audit.envelope import Interaction, aware
from autofix.audit.events import AuditEvent
from autofix.audit.health import Health, HealthQuery, scan_health
from autofix.audit.runs import RunPage, RunQuery, scan_runs

log = logging.getLogger("autofix.audit")

# What a store holds: attempts and events.
Record = TypeVar("Record", Interaction, AuditEvent)


@dataclass(frozen=True)
class Usage:
    """Calls and spend counted from the store (for budgets)."""

    calls: int = 0
    cost_usd: float = 0.0
    tokens: int = 0


class AuditStore(ABC):
    """The one query API. Subclasses implement the four primitives; the queries are shared.

    Query results: ``by_trace`` and ``events`` in recorded order; ``recent`` and ``failures``
    newest first.

    A store that can narrow a query cheaply (a byte filter, a key prefix) overrides the
    ``*_candidates`` hooks. They may yield records of other traces or envelopes; the queries
    keep only exact matches, so every store answers alike.
    """

    @abstractmethod
    def append(self, interaction: Interaction) -> None:
        """Write one attempt. Raises AuditWriteError when it cannot."""

    @abstractmethod
    def append_event(self, event: AuditEvent) -> None:
        """Write one event. Raises AuditWriteError when it cannot."""

    @abstractmethod
    def iter_all(self, since: datetime | None = None) -> Iterator[Interaction]:
        """Every interaction recorded at or after ``since``, oldest first."""

    @abstractmethod
    def iter_events(self, since: datetime | None = None) -> Iterator[AuditEvent]:
        """Every event at or after ``since``, in recorded order."""

    def _iter_newest_first(self) -> Iterator[Interaction]:
        return reversed(list(self.iter_all()))

    def _trace_candidates(self, trace_id: str) -> Iterable[Interaction]:
        """Interactions that may belong to ``trace_id``, in recorded order."""
        return self.iter_all()

    def _trace_event_candidates(self, trace_id: str) -> Iterable[AuditEvent]:
        """Events that may belong to ``trace_id``, in recorded order."""
        return self.iter_events()

    def _envelope_candidates(self, envelope_id: str) -> Iterable[Interaction]:
        """Interactions that may belong to ``envelope_id``, newest first."""
        return self._iter_newest_first()

    def events(self, trace_id: str) -> list[AuditEvent]:
        return [
            event for event in self._trace_event_candidates(trace_id) if event.trace_id == trace_id
        ]

    def get(self, envelope_id: str) -> Interaction | None:
        """The interaction of this envelope (its latest attempt if the id was reused)."""
        candidates = self._envelope_candidates(envelope_id)
        return next((item for item in candidates if item.envelope_id == envelope_id), None)

    def by_trace(self, trace_id: str) -> list[Interaction]:
        return [item for item in self._trace_candidates(trace_id) if item.trace_id == trace_id]

    def recent(self, n: int, *, min_attempt: int = 1) -> list[Interaction]:
        """The ``n`` most recent interactions, newest first; ``min_attempt=2`` gives retries only."""
        picked: list[Interaction] = []
        if n <= 0:
            return picked
        for interaction in self._iter_newest_first():
            if interaction.attempt >= min_attempt:
                picked.append(interaction)
                if len(picked) >= n:
                    break
        return picked

    def failures(
        self, limit: int | None = None, since: datetime | None = None
    ) -> list[Interaction]:
        """Failed attempts, newest first."""
        failed = [item for item in self.iter_all(since) if not item.result.success]
        failed.reverse()
        return failed if limit is None else failed[:limit]

    def runs(self, query: RunQuery) -> RunPage:
        """The DAG runs that made agent calls, newest first, filtered and paged."""
        return scan_runs(self.iter_all(), query)

    def health(self, query: HealthQuery) -> Health:
        """Recovery, cost and errors over time for the DAGs the query names."""
        return scan_health(self.iter_all(), query)

    def usage(self, trace_id: str | None = None, since: datetime | None = None) -> Usage:
        calls, cost, tokens = 0, 0.0, 0
        for item in self.iter_all(since):
            if trace_id is not None and item.trace_id != trace_id:
                continue
            calls += 1
            cost += item.result.cost_usd or 0.0
            tokens += item.result.total_tokens
        return Usage(calls=calls, cost_usd=cost, tokens=tokens)

    def describe(self) -> str:
        return type(self).__name__

    def reserve(
        self,
        trace_id: str,
        check: Callable[[Usage, Usage], None],
        *,
        now: datetime,
        ttl_seconds: float,
        hostname: str | None = None,
        reservation_id: str | None = None,
    ) -> str | None:
        """Count (run, day) spend, ``check`` it and reserve one call, atomically across
        workers; the reservation's id, settled when that envelope id is appended. None here:
        this store cannot, so its budgets are counted per machine (autofix.audit.budget)."""
        return None


def record_time(record: Interaction | AuditEvent) -> datetime:
    """When a record was made: ``recorded_at`` for an interaction, ``timestamp`` for an event."""
    return record.recorded_at if isinstance(record, Interaction) else record.timestamp


def since_ok(record: Interaction | AuditEvent, since: datetime | None) -> bool:
    return since is None or aware(record_time(record)) >= aware(since)


def load_record(model: type[Record], data: dict[str, Any]) -> Record | None:
    """A stored record, or None for one that does not validate (skipped, not fatal)."""
    try:
        return model.from_stored(data)
    except ValueError:
        log.debug(
            "skipping an audit %s that does not validate",
            "event" if model is AuditEvent else "record",
        )
        return None
