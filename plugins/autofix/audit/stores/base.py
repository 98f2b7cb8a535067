"""The audit store contract: the AuditStore query API, Usage, and helpers every store shares."""

from __future__ import annotations

import logging
from abc import ABC, abstractmethod
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from autofix.audit.envelope import Interaction
from autofix.audit.events import AuditEvent

log = logging.getLogger("autofix.audit")


@dataclass(frozen=True)
class Usage:
    """Calls and spend counted from the store (for budgets)."""

    calls: int = 0
    cost_usd: float = 0.0
    tokens: int = 0


def aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


class AuditStore(ABC):
    """The one query API. Subclasses implement the five primitives; the rest is shared."""

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

    def events(self, trace_id: str) -> list[AuditEvent]:
        return [event for event in self.iter_events() if event.trace_id == trace_id]

    def get(self, envelope_id: str) -> Interaction | None:
        """The interaction of this envelope (its latest attempt if the id was reused)."""
        found: Interaction | None = None
        for interaction in self.iter_all():
            if interaction.envelope_id == envelope_id:
                found = interaction
        return found

    def by_trace(self, trace_id: str) -> list[Interaction]:
        return [item for item in self.iter_all() if item.trace_id == trace_id]

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


def since_ok(recorded: datetime, since: datetime | None) -> bool:
    return since is None or aware(recorded) >= aware(since)


def load_interaction(data: dict[str, Any]) -> Interaction | None:
    try:
        return Interaction.from_stored(data)
    except ValueError:
        log.debug("skipping an audit record that does not validate")
        return None


def load_event(data: dict[str, Any]) -> AuditEvent | None:
    try:
        return AuditEvent.from_stored(data)
    except ValueError:
        log.debug("skipping an audit event that does not validate")
        return None
