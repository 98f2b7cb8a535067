"""Audit stores: one query API over a JSONL file (default), S3, or memory.

Query results: ``by_trace`` and ``events`` in recorded order; ``recent`` and ``failures`` newest first.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import json
import logging
import os
import random
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from autofix.audit.envelope import Interaction
from autofix.audit.events import AuditEvent
from autofix.config import AuditSettings, resolve
from autofix.errors import AuditWriteError, ConfigError
from autofix.redact import redact

if TYPE_CHECKING:
    from mypy_boto3_s3 import S3Client

log = logging.getLogger("autofix.audit")

T = TypeVar("T")


@dataclass(frozen=True)
class Usage:
    """Calls and spend counted from the store (for budgets)."""

    calls: int = 0
    cost_usd: float = 0.0
    tokens: int = 0


def _aware(moment: datetime) -> datetime:
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


def _since_ok(recorded: datetime, since: datetime | None) -> bool:
    return since is None or _aware(recorded) >= _aware(since)


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
        return (item for item in items if _since_ok(item.recorded_at, since))

    def iter_events(self, since: datetime | None = None) -> Iterator[AuditEvent]:
        with self._lock:
            items = list(self._events)
        return (item for item in items if _since_ok(item.timestamp, since))


# --------------------------------------------------------------------------- JSONL

_READ_CHUNK = 1 << 20
_KIND_INTERACTION = b'{"kind":"interaction"'
_KIND_EVENT = b'{"kind":"event"'


def _parse_line(line: bytes) -> dict[str, Any] | None:
    """A whole record, or None for a blank, torn or foreign line."""
    line = line.strip()
    if not line:
        return None
    try:
        data = json.loads(line)
    except ValueError:
        return None
    return data if isinstance(data, dict) else None


def _recorded_at(data: dict[str, Any], key: str) -> datetime | None:
    value = data.get(key)
    if not isinstance(value, str):
        return None
    try:
        return _aware(datetime.fromisoformat(value))
    except ValueError:
        return None


class JsonlStore(AuditStore):
    """Append-only JSONL, one record per line, safe for many processes on one disk.

    Each append is one ``os.write`` on an ``O_APPEND`` descriptor under an exclusive ``flock``,
    so records never interleave. A torn line (a writer killed mid-write) is skipped on read,
    and the next append starts on a fresh line. Segments rotate by size (``rotate_max_bytes``)
    or by UTC day (``rotate_daily``); rotated segments stay queryable.
    """

    def __init__(
        self,
        path: str | Path,
        *,
        rotate_max_bytes: int | None = 64 * 1024 * 1024,
        rotate_daily: bool = False,
    ) -> None:
        self.path = Path(path)
        self.rotate_max_bytes = rotate_max_bytes
        self.rotate_daily = rotate_daily
        self._stem = (
            self.path.name[: -len(self.path.suffix)] if self.path.suffix else self.path.name
        )
        self._suffix = self.path.suffix or ".jsonl"
        self.skipped_lines = 0  # torn or foreign lines seen by the last reads

    def describe(self) -> str:
        return f"jsonl:{self.path}"

    # ---- writing

    def active_path(self, now: datetime | None = None) -> Path:
        if not self.rotate_daily:
            return self.path
        day = (now or datetime.now(UTC)).strftime("%Y-%m-%d")
        return self.path.with_name(f"{self._stem}.{day}{self._suffix}")

    def append(self, interaction: Interaction) -> None:
        self._write(interaction.model_dump_json().encode("utf-8"))

    def append_event(self, event: AuditEvent) -> None:
        self._write(event.model_dump_json().encode("utf-8"))

    def _write(self, payload: bytes) -> None:
        record = payload + b"\n"
        try:
            self._write_locked(record)
        except OSError as exc:
            raise AuditWriteError(
                f"cannot append audit record to {self.active_path()}: {exc}"
            ) from exc

    def _write_locked(self, record: bytes) -> None:
        target = self.active_path()
        target.parent.mkdir(parents=True, exist_ok=True)
        while True:
            fd = os.open(target, os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC, 0o640)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX)
                info = os.fstat(fd)
                try:
                    current = os.stat(target)
                except FileNotFoundError:
                    current = None
                if current is None or current.st_ino != info.st_ino:
                    continue  # rotated between open and lock: write to the new file
                size = info.st_size
                if self.rotate_max_bytes and size and size + len(record) > self.rotate_max_bytes:
                    self._rotate(target)
                    continue
                data = record
                if size and os.pread(fd, 1, size - 1) != b"\n":
                    data = b"\n" + record  # never glue onto a torn line
                written = os.write(fd, data)
                if written != len(data):
                    raise OSError(errno.EIO, f"short write: {written} of {len(data)} bytes")
                return
            finally:
                os.close(fd)  # also releases the lock

    def _rotate(self, target: Path) -> None:
        stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S%f")
        rotated = target.with_name(f"{target.name[: -len(self._suffix)]}.{stamp}{self._suffix}")
        n = 0
        while rotated.exists():
            n += 1
            rotated = target.with_name(
                f"{target.name[: -len(self._suffix)]}.{stamp}-{n}{self._suffix}"
            )
        os.rename(target, rotated)

    # ---- reading

    def segments(self) -> list[Path]:
        """All segment files, oldest first (rotated segments by mtime, then the active file)."""
        directory = self.path.parent
        if not directory.is_dir():
            return []
        found: list[tuple[int, str, Path]] = []
        for candidate in directory.glob(f"{self._stem}.*{self._suffix}"):
            with contextlib.suppress(FileNotFoundError):
                found.append((candidate.stat().st_mtime_ns, candidate.name, candidate))
        found.sort()
        paths = [item[2] for item in found]
        if self.path.is_file():
            paths.append(self.path)
        return paths

    def _lines(self, path: Path) -> Iterator[bytes]:
        try:
            with path.open("rb") as handle:
                yield from handle
        except FileNotFoundError:
            return

    def _lines_reversed(self, path: Path) -> Iterator[bytes]:
        try:
            handle = path.open("rb")
        except FileNotFoundError:
            return
        with handle:
            position = handle.seek(0, os.SEEK_END)
            tail = b""
            while position > 0:
                step = min(_READ_CHUNK, position)
                position -= step
                handle.seek(position)
                block = handle.read(step) + tail
                lines = block.split(b"\n")
                tail = lines.pop(0)  # may be the end of a line that started earlier
                yield from reversed(lines)
            if tail:
                yield tail

    def _raw(
        self,
        prefix: bytes,
        since: datetime | None = None,
        needle: bytes | None = None,
        newest_first: bool = False,
    ) -> Iterator[dict[str, Any]]:
        """Parsed records of one kind; ``needle`` is a cheap byte filter applied before parsing."""
        time_key = "recorded_at" if prefix is _KIND_INTERACTION else "timestamp"
        segments = self.segments()
        if since is not None:
            cutoff = _aware(since).timestamp() * 1e9
            # A segment last written before ``since`` holds nothing newer.
            segments = [p for p in segments if p == self.path or _mtime_ns(p) >= cutoff]
        if newest_first:
            segments.reverse()
        skipped = 0
        for segment in segments:
            lines = self._lines_reversed(segment) if newest_first else self._lines(segment)
            for line in lines:
                if not line.startswith(prefix):
                    if line.strip() and not line.startswith(b'{"kind":'):
                        skipped += 1
                    continue
                if needle is not None and needle not in line:
                    continue
                data = _parse_line(line)
                if data is None:
                    skipped += 1
                    continue
                if since is not None:
                    moment = _recorded_at(data, time_key)
                    if moment is None or moment < _aware(since):
                        continue
                yield data
        self.skipped_lines = skipped

    def iter_all(self, since: datetime | None = None) -> Iterator[Interaction]:
        for data in self._raw(_KIND_INTERACTION, since):
            interaction = _load_interaction(data)
            if interaction is not None:
                yield interaction

    def iter_events(self, since: datetime | None = None) -> Iterator[AuditEvent]:
        for data in self._raw(_KIND_EVENT, since):
            event = _load_event(data)
            if event is not None:
                yield event

    def _iter_newest_first(self) -> Iterator[Interaction]:
        for data in self._raw(_KIND_INTERACTION, newest_first=True):
            interaction = _load_interaction(data)
            if interaction is not None:
                yield interaction

    def events(self, trace_id: str) -> list[AuditEvent]:
        needle = _json_field(b"trace_id", trace_id)
        loaded = (_load_event(d) for d in self._raw(_KIND_EVENT, needle=needle))
        return [e for e in loaded if e is not None and e.trace_id == trace_id]

    def get(self, envelope_id: str) -> Interaction | None:
        needle = _json_field(b"envelope_id", envelope_id)
        for data in self._raw(_KIND_INTERACTION, needle=needle, newest_first=True):
            interaction = _load_interaction(data)
            if interaction is not None and interaction.envelope_id == envelope_id:
                return interaction
        return None

    def by_trace(self, trace_id: str) -> list[Interaction]:
        needle = _json_field(b"trace_id", trace_id)
        loaded = (_load_interaction(d) for d in self._raw(_KIND_INTERACTION, needle=needle))
        return [i for i in loaded if i is not None and i.trace_id == trace_id]

    def failures(
        self, limit: int | None = None, since: datetime | None = None
    ) -> list[Interaction]:
        picked: list[Interaction] = []
        # Newest first, stopping early when a limit is given.
        for data in self._raw(
            _KIND_INTERACTION, since=since, needle=b'"success":false', newest_first=True
        ):
            interaction = _load_interaction(data)
            if interaction is None or interaction.result.success:
                continue
            picked.append(interaction)
            if limit is not None and len(picked) >= limit:
                break
        return picked

    def usage(self, trace_id: str | None = None, since: datetime | None = None) -> Usage:
        # Budgets run before every call: count on raw dicts, no model validation.
        needle = _json_field(b"trace_id", trace_id) if trace_id is not None else None
        calls, cost, tokens = 0, 0.0, 0
        for data in self._raw(_KIND_INTERACTION, since=since, needle=needle):
            envelope = data.get("envelope") or {}
            result = data.get("result") or {}
            if trace_id is not None and envelope.get("trace_id") != trace_id:
                continue
            calls += 1
            cost += float(result.get("cost_usd") or 0.0)
            tokens += sum(
                int(result.get(k) or 0)
                for k in ("input_tokens", "output_tokens", "thinking_tokens")
            )
        return Usage(calls=calls, cost_usd=cost, tokens=tokens)


def _mtime_ns(path: Path) -> float:
    try:
        return float(path.stat().st_mtime_ns)
    except FileNotFoundError:
        return 0.0


def _json_field(key: bytes, value: str) -> bytes | None:
    """The exact bytes pydantic writes for ``"key":"value"``, or None (no byte filter) when
    the value needs JSON escaping, whose spelling could differ between encoders."""
    if not value.isascii() or not value.isprintable() or '"' in value or "\\" in value:
        return None
    return b'"' + key + b'":"' + value.encode("ascii") + b'"'


def _load_interaction(data: dict[str, Any]) -> Interaction | None:
    try:
        return Interaction.from_stored(data)
    except ValueError:
        log.debug("skipping an audit record that does not validate")
        return None


def _load_event(data: dict[str, Any]) -> AuditEvent | None:
    try:
        return AuditEvent.from_stored(data)
    except ValueError:
        log.debug("skipping an audit event that does not validate")
        return None


# --------------------------------------------------------------------------- S3

TRANSIENT_S3_CODES = frozenset(
    {
        "SlowDown",
        "InternalError",
        "ServiceUnavailable",
        "RequestTimeout",
        "RequestTimeTooSkewed",
        "Throttling",
        "ThrottlingException",
        "503",
        "500",
        "502",
        "504",
    }
)


def is_transient_s3_error(exc: BaseException) -> bool:
    from botocore.exceptions import (
        ClientError,
        ConnectionClosedError,
        ConnectTimeoutError,
        EndpointConnectionError,
        ReadTimeoutError,
    )

    if isinstance(
        exc,
        EndpointConnectionError | ConnectionClosedError | ReadTimeoutError | ConnectTimeoutError,
    ):
        return True
    if isinstance(exc, ClientError):
        error = exc.response.get("Error", {})
        status = exc.response.get("ResponseMetadata", {}).get("HTTPStatusCode", 0)
        return str(error.get("Code", "")) in TRANSIENT_S3_CODES or status in (500, 502, 503, 504)
    return False


_SAFE_KEY = str.maketrans({"/": "_", "\\": "_", "\n": "_", "\r": "_"})


def _key_part(value: str) -> str:
    """A trace or envelope id as one key segment: no slashes, no secrets."""
    return redact(value).translate(_SAFE_KEY) or "_"


class S3Store(AuditStore):
    """One object per attempt, for workers that share no disk.

    Keys: ``<prefix>/<trace_id>/<envelope_id>-<attempt>.json`` and events under
    ``<prefix>/<trace_id>/events/<time>-<event_id>.json``. A run is one prefix, so ``by_trace``
    and ``events`` cost one LIST per 1000 objects of that run. Time-based queries list the
    whole prefix (one LIST per 1000 objects) and skip objects older than ``since`` by their
    ``LastModified`` without fetching them.

    Transient errors are retried twice over: botocore's standard retry mode inside each call,
    and our own backoff around it for throttling, 5xx and connection errors that remain.
    """

    def __init__(
        self,
        bucket: str,
        prefix: str = "autofix/audit",
        *,
        client: S3Client | None = None,
        max_attempts: int = 5,
        backoff_base_s: float = 0.2,
        backoff_max_s: float = 5.0,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.bucket = bucket
        self.prefix = prefix.strip("/")
        self.max_attempts = max(1, max_attempts)
        self.backoff_base_s = backoff_base_s
        self.backoff_max_s = backoff_max_s
        self._sleep = sleep
        self._client_obj = client

    def describe(self) -> str:
        return f"s3://{self.bucket}/{self.prefix}"

    @property
    def client(self) -> S3Client:
        if self._client_obj is None:
            import boto3
            from botocore.config import Config

            self._client_obj = boto3.client(
                "s3",
                config=Config(
                    retries={"max_attempts": 4, "mode": "standard"},
                    connect_timeout=5,
                    read_timeout=15,
                ),
            )
        return self._client_obj

    def _retry(self, what: str, call: Callable[[], T]) -> T:
        for attempt in range(1, self.max_attempts + 1):
            try:
                return call()
            except Exception as exc:
                if attempt >= self.max_attempts or not is_transient_s3_error(exc):
                    raise
                delay = min(self.backoff_max_s, self.backoff_base_s * 2 ** (attempt - 1))
                delay *= 0.5 + random.random() / 2  # jitter: workers don't retry in step
                log.warning(
                    "audit S3 %s failed (%s), retry %d of %d in %.2fs",
                    what,
                    type(exc).__name__,
                    attempt,
                    self.max_attempts - 1,
                    delay,
                )
                self._sleep(delay)
        raise AssertionError("unreachable")

    def _base(self, trace_id: str | None = None) -> str:
        parts = [self.prefix] if self.prefix else []
        if trace_id is not None:
            parts.append(_key_part(trace_id))
        return "/".join(parts) + "/"

    def key_for(self, interaction: Interaction) -> str:
        return f"{self._base(interaction.trace_id)}{_key_part(interaction.envelope_id)}-{interaction.attempt}.json"

    def key_for_event(self, event: AuditEvent) -> str:
        stamp = _aware(event.timestamp).strftime("%Y%m%dT%H%M%S%f")
        return f"{self._base(event.trace_id)}events/{stamp}-{_key_part(event.event_id)}.json"

    def _put(self, key: str, body: bytes) -> None:
        try:
            self._retry(
                "put",
                lambda: self.client.put_object(
                    Bucket=self.bucket, Key=key, Body=body, ContentType="application/json"
                ),
            )
        except Exception as exc:
            raise AuditWriteError(
                f"cannot write audit record s3://{self.bucket}/{key}: {exc}"
            ) from exc

    def append(self, interaction: Interaction) -> None:
        self._put(self.key_for(interaction), interaction.model_dump_json().encode("utf-8"))

    def append_event(self, event: AuditEvent) -> None:
        self._put(self.key_for_event(event), event.model_dump_json().encode("utf-8"))

    def _list(self, prefix: str, since: datetime | None = None) -> list[tuple[datetime, str]]:
        def page_through() -> list[tuple[datetime, str]]:
            found: list[tuple[datetime, str]] = []
            paginator = self.client.get_paginator("list_objects_v2")
            for page in paginator.paginate(Bucket=self.bucket, Prefix=prefix):
                for item in page.get("Contents", []):
                    modified = _aware(item["LastModified"])
                    if since is None or modified >= _aware(since):
                        found.append((modified, item["Key"]))
            return found

        found = self._retry("list", page_through)
        found.sort()
        return found

    def _get_json(self, key: str) -> dict[str, Any] | None:
        def fetch() -> bytes:
            return self.client.get_object(Bucket=self.bucket, Key=key)["Body"].read()

        try:
            data = json.loads(self._retry("get", fetch))
        except ValueError:
            return None
        return data if isinstance(data, dict) else None

    @staticmethod
    def _is_event_key(key: str) -> bool:
        return "/events/" in key

    def _interactions(
        self, keys: list[tuple[datetime, str]], since: datetime | None
    ) -> list[Interaction]:
        loaded: list[Interaction] = []
        for _, key in keys:
            if self._is_event_key(key) or not key.endswith(".json"):
                continue
            data = self._get_json(key)
            interaction = _load_interaction(data) if data else None
            if interaction is not None and _since_ok(interaction.recorded_at, since):
                loaded.append(interaction)
        loaded.sort(key=lambda item: _aware(item.recorded_at))
        return loaded

    def iter_all(self, since: datetime | None = None) -> Iterator[Interaction]:
        return iter(self._interactions(self._list(self._base(), since), since))

    def _iter_newest_first(self) -> Iterator[Interaction]:
        # Fetch lazily from the newest object back, so recent(n) costs n GETs after the LIST.
        for _, key in reversed(self._list(self._base())):
            if self._is_event_key(key) or not key.endswith(".json"):
                continue
            data = self._get_json(key)
            interaction = _load_interaction(data) if data else None
            if interaction is not None:
                yield interaction

    def by_trace(self, trace_id: str) -> list[Interaction]:
        return [
            i
            for i in self._interactions(self._list(self._base(trace_id)), None)
            if i.trace_id == trace_id
        ]

    def get(self, envelope_id: str) -> Interaction | None:
        marker = f"/{_key_part(envelope_id)}-"
        keys = [entry for entry in self._list(self._base()) if marker in entry[1]]
        matches = [i for i in self._interactions(keys, None) if i.envelope_id == envelope_id]
        return matches[-1] if matches else None

    def iter_events(self, since: datetime | None = None) -> Iterator[AuditEvent]:
        keys = [k for k in self._list(self._base(), since) if self._is_event_key(k[1])]
        return iter(self._load_events(keys, since))

    def events(self, trace_id: str) -> list[AuditEvent]:
        keys = self._list(self._base(trace_id) + "events/")
        return [e for e in self._load_events(keys, None) if e.trace_id == trace_id]

    def _load_events(
        self, keys: list[tuple[datetime, str]], since: datetime | None
    ) -> list[AuditEvent]:
        loaded: list[AuditEvent] = []
        for _, key in keys:
            data = self._get_json(key)
            event = _load_event(data) if data else None
            if event is not None and _since_ok(event.timestamp, since):
                loaded.append(event)
        loaded.sort(key=lambda event: _aware(event.timestamp))
        return loaded


# --------------------------------------------------------------------------- factory


def build_store(settings: AuditSettings) -> AuditStore:
    """The store ``config/autofix.yaml`` asks for (``audit.store``)."""
    if settings.store == "memory":
        return MemoryStore()
    if settings.store == "s3":
        if not settings.bucket:
            raise ConfigError("audit.store is s3 but audit.bucket is not set")
        return S3Store(settings.bucket, settings.prefix)
    return JsonlStore(
        resolve(settings.path),
        rotate_max_bytes=settings.rotate_max_bytes,
        rotate_daily=settings.rotate_daily,
    )


def store_from_uri(uri: str) -> AuditStore:
    """``s3://bucket/prefix``, ``memory:`` or a JSONL path (for the command line)."""
    if uri.startswith("s3://"):
        bucket, _, prefix = uri[len("s3://") :].partition("/")
        if not bucket:
            raise ConfigError(f"no bucket in audit store URI {uri!r}; use s3://bucket/prefix")
        return S3Store(bucket, prefix)
    if uri == "memory:":
        return MemoryStore()
    return JsonlStore(resolve(uri), rotate_max_bytes=None)
