"""MemoryStore: the in-process audit store, for tests and dry runs."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from datetime import datetime

from autofix.audit.envelope import Interaction
from autofix.audit.events import AuditEvent
from autofix.audit.stores.base import AuditStore, since_ok


class MemoryStore(AuditStore):
    """In-process store for tests and dry runs."""

    def __init__(self) -> None:
        self._interactions: list[Interaction] = []
        self._events: list[AuditEvent] = []
        self._lock = threading.Lock()

    def append(self, interaction: Interaction) -> None:
        # Round-trip through JSON so readers see exactly what a real store would keep.
        stored = Interaction.from_stored(json.loads(interaction.model_dump_json()))
        with self._lock:
            self._interactions.append(stored)

    def append_event(self, event: AuditEvent) -> None:
        stored = AuditEvent.from_stored(json.loads(event.model_dump_json()))
        with self._lock:
            self._events.append(stored)

    def iter_all(self, since: datetime | None = None) -> Iterator[Interaction]:
        with self._lock:
            items = list(self._interactions)
        return (item for item in items if since_ok(item.recorded_at, since))

    def iter_events(self, since: datetime | None = None) -> Iterator[AuditEvent]:
        with self._lock:
            items = list(self._events)
        return (item for item in items if since_ok(item.timestamp, since))
