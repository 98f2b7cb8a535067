"""Stop hopeless runs early: a per-format watcher of the CLI's own retry notices.

A CLI keeps retrying some failures that will not clear by themselves (Claude retries an expired
OAuth token's 401, Codex retries a 401 five times and waits for a lost network forever) and
others for minutes (a persisting 5xx or 529 with backoff up to 30-40 s per try). Each format's
watcher turns its CLI's notices (Claude ``system/api_retry`` events, Codex ``Reconnecting...``
error events, Gemini ``Attempt N failed`` stderr lines) into :class:`RetryNotice` values; after a
bounded number of notices of the same failure it returns an :class:`EarlyStop` with the kind.
Nothing here runs a process or knows Airflow: task/attempt.py kills the run.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from autofix.agents.failures import kind_from_status
from autofix.result import FailureKind

# Statuses no retry can fix: bad request, bad or missing credentials, not allowed, not found.
HOPELESS_STATUSES = frozenset({400, 401, 403, 404, 422})
HOPELESS_KINDS = frozenset(
    {
        FailureKind.AUTH,
        FailureKind.PERMISSION,
        FailureKind.INVALID_REQUEST,
        FailureKind.CONTEXT_WINDOW,
        FailureKind.QUOTA_EXHAUSTED,
    }
)


@dataclass(frozen=True)
class WatchSettings:
    """How many retry notices of the same failure a run may show before it is stopped.

    ``hopeless_after``: of a failure no retry can fix (a 4xx, credentials, the network gone for
    good); ``repeated_after``: of a transient one (429, 5xx, 529, a refused connection). 0 turns
    that check off.
    """

    hopeless_after: int = 2
    repeated_after: int = 4

    @property
    def enabled(self) -> bool:
        return self.hopeless_after > 0 or self.repeated_after > 0


@dataclass(frozen=True)
class RetryNotice:
    """One retry the CLI announced: what failed and whether retrying can help."""

    key: str  # notices with the same key are "the same failure"
    kind: FailureKind
    hopeless: bool
    text: str
    retry_after_s: float | None = None


@dataclass(frozen=True)
class EarlyStop:
    """The watcher's decision: stop the run, and report this kind."""

    kind: FailureKind
    notices: int
    text: str
    retry_after_s: float | None = None

    @property
    def message(self) -> str:
        return (
            f"stopped early: the agent retried the same failure {self.notices} times "
            f"({self.kind.value}): {self.text}"
        )


def notice_for_status(
    status: int | None,
    text: str,
    kind: FailureKind | None = None,
    retry_after_s: float | None = None,
) -> RetryNotice | None:
    """A notice keyed by its HTTP status (or its kind when there is none)."""
    resolved = kind_from_status(status) or kind
    if resolved is None:
        return None
    hopeless = status in HOPELESS_STATUSES or resolved in HOPELESS_KINDS
    key = str(status) if status is not None else resolved.value
    return RetryNotice(key, resolved, hopeless, text[:300], retry_after_s)


class RetryWatcher:
    """Counts consecutive notices of the same failure; ``stopped`` is set once the limit is hit.

    ``on_event`` / ``on_stderr`` return the notice they recognised (the judge keeps the CLI's own
    retry chatter out of the stderr error verdict), whether or not early stops are enabled.
    """

    def __init__(self, settings: WatchSettings) -> None:
        self.settings = settings
        self.stopped: EarlyStop | None = None
        self.notices = 0
        self._key: str | None = None
        self._count = 0

    def on_event(self, event: dict[str, Any]) -> RetryNotice | None:
        return self._see(self.notice_from_event(event))

    def on_stderr(self, line: str) -> RetryNotice | None:
        return self._see(self.notice_from_stderr(line))

    def notice_from_event(self, event: dict[str, Any]) -> RetryNotice | None:
        """A retry notice in a stdout event, or None (formats override)."""
        return None

    def notice_from_stderr(self, line: str) -> RetryNotice | None:
        """A retry notice on a stderr line, or None (formats override)."""
        return None

    def _see(self, notice: RetryNotice | None) -> RetryNotice | None:
        if notice is None:
            return None
        self.notices += 1
        if notice.key == self._key:
            self._count += 1
        else:
            self._key, self._count = notice.key, 1
        limit = self.settings.hopeless_after if notice.hopeless else self.settings.repeated_after
        if self.stopped is None and 0 < limit <= self._count:
            self.stopped = EarlyStop(notice.kind, self._count, notice.text, notice.retry_after_s)
        return notice
