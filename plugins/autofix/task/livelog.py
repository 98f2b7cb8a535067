"""Batches an agent's output lines into the task log: live, but not one log call per line.

A logging call costs tens of microseconds in Airflow's task logger, so a chatty agent would be
throttled by its own log. Lines are flushed as one multi-line record when a batch fills, when it
gets old, and by a small timer thread while the agent is quiet, so nothing waits long.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from types import TracebackType

from autofix.redact import redact

MAX_LINE_CHARS = 4000
BATCH_LINES = 500
MAX_DELAY_S = 0.2


def clip(line: str) -> str:
    if len(line) <= MAX_LINE_CHARS:
        return line
    return line[:MAX_LINE_CHARS] + f" …[{len(line) - MAX_LINE_CHARS} more chars]"


class LiveLog:
    """Collects lines from any thread; ``emit`` receives redacted multi-line blocks in order."""

    def __init__(
        self,
        emit: Callable[[str], None],
        *,
        batch_lines: int = BATCH_LINES,
        max_delay_s: float = MAX_DELAY_S,
    ) -> None:
        self._emit = emit
        self._batch_lines = batch_lines
        self._max_delay = max_delay_s
        self._lines: list[str] = []
        self._first_at = 0.0
        self._lock = threading.Lock()
        self._emit_lock = threading.Lock()  # keeps blocks in order across threads
        self._stop = threading.Event()
        self._timer: threading.Thread | None = None

    def __enter__(self) -> LiveLog:
        self._timer = threading.Thread(target=self._tick, name="autofix-livelog", daemon=True)
        self._timer.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self._stop.set()
        if self._timer is not None:
            self._timer.join()
        self.flush()

    def line(self, text: str) -> None:
        with self._lock:
            if not self._lines:
                self._first_at = time.monotonic()
            self._lines.append(clip(text))
            full = len(self._lines) >= self._batch_lines
            stale = time.monotonic() - self._first_at >= self._max_delay
        if full or stale:
            self.flush()

    def flush(self) -> None:
        with self._emit_lock:
            with self._lock:
                lines, self._lines = self._lines, []
            if lines:
                self._emit(redact("\n".join(lines)))

    def _tick(self) -> None:
        while not self._stop.wait(self._max_delay / 2):
            with self._lock:
                due = bool(self._lines) and time.monotonic() - self._first_at >= self._max_delay
            if due:
                self.flush()
