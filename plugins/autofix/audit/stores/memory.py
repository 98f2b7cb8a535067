"""MemoryStore: the in-process audit store, for tests and dry runs."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from datetime import datetime

from autofix.audit.envelope import Interaction
from autofix.audit.events import AuditEvent
from autofix.audit.stores.base import AuditStore, Record, since_ok


class MemoryStore(AuditStore):
    """In-process store for tests and dry runs."""

    def __init__(self) -> None:
        self._interactions: list[Interaction] = []
        self._events: list[AuditEvent] = []
        self._lock = threading.Lock()

    def append(self, interaction: Interaction) -> None:
        self._keep(self._interactions, interaction)

    def append_event(self, event: AuditEvent) -> None:
        self._keep(self._events, event)

    def iter_all(self, since: datetime | None = None) -> Iterator[Interaction]:
        return self._since(self._interactions, since)

    def iter_events(self, since: datetime | None = None) -> Iterator[AuditEvent]:
        return self._since(self._events, since)

    def _keep(self, records: list[Record], record: Record) -> None:
        # Round-trip through JSON so readers see exactly what a real store would keep.
        stored = type(record).from_stored(json.loads(record.model_dump_json()))
        with self._lock:
            records.append(stored)

    def _since(self, records: list[Record], since: datetime | None) -> Iterator[Record]:
        with self._lock:
            items = list(records)
        return (item for item in items if since_ok(item, since))
