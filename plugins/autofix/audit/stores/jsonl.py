"""JsonlStore: the default audit store, append-only JSONL segments on a local or shared disk."""

from __future__ import annotations

import contextlib
import errno
import fcntl
import json
import os
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Generic

from autofix.audit.envelope import Interaction, aware
from autofix.audit.events import AuditEvent
from autofix.audit.stores.base import AuditStore, Record, Usage, load_record
from autofix.errors import AuditWriteError

_READ_CHUNK = 1 << 20


@dataclass(frozen=True)
class _Kind(Generic[Record]):
    """One record kind as it sits on a line: pydantic writes ``kind`` first, so a line's
    prefix says its kind before it is parsed."""

    model: type[Record]
    prefix: bytes
    time_key: str


_INTERACTIONS = _Kind(Interaction, b'{"kind":"interaction"', "recorded_at")
_EVENTS = _Kind(AuditEvent, b'{"kind":"event"', "timestamp")


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
        return aware(datetime.fromisoformat(value))
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
        kind: _Kind[Any],
        since: datetime | None = None,
        needle: bytes | None = None,
        newest_first: bool = False,
    ) -> Iterator[dict[str, Any]]:
        """Parsed records of one kind; ``needle`` is a cheap byte filter applied before parsing."""
        segments = self.segments()
        if since is not None:
            cutoff = aware(since).timestamp() * 1e9
            # A segment last written before ``since`` holds nothing newer.
            segments = [p for p in segments if p == self.path or _mtime_ns(p) >= cutoff]
        if newest_first:
            segments.reverse()
        skipped = 0
        for segment in segments:
            lines = self._lines_reversed(segment) if newest_first else self._lines(segment)
            for line in lines:
                if not line.startswith(kind.prefix):
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
                    moment = _recorded_at(data, kind.time_key)
                    if moment is None or moment < aware(since):
                        continue
                yield data
        self.skipped_lines = skipped

    def _records(
        self,
        kind: _Kind[Record],
        since: datetime | None = None,
        needle: bytes | None = None,
        newest_first: bool = False,
    ) -> Iterator[Record]:
        """The records of ``_raw`` that validate."""
        for data in self._raw(kind, since, needle, newest_first):
            record = load_record(kind.model, data)
            if record is not None:
                yield record

    def iter_all(self, since: datetime | None = None) -> Iterator[Interaction]:
        return self._records(_INTERACTIONS, since)

    def iter_events(self, since: datetime | None = None) -> Iterator[AuditEvent]:
        return self._records(_EVENTS, since)

    def _iter_newest_first(self) -> Iterator[Interaction]:
        return self._records(_INTERACTIONS, newest_first=True)

    def _trace_candidates(self, trace_id: str) -> Iterator[Interaction]:
        return self._records(_INTERACTIONS, needle=_json_field(b"trace_id", trace_id))

    def _trace_event_candidates(self, trace_id: str) -> Iterator[AuditEvent]:
        return self._records(_EVENTS, needle=_json_field(b"trace_id", trace_id))

    def _envelope_candidates(self, envelope_id: str) -> Iterator[Interaction]:
        needle = _json_field(b"envelope_id", envelope_id)
        return self._records(_INTERACTIONS, needle=needle, newest_first=True)

    def failures(
        self, limit: int | None = None, since: datetime | None = None
    ) -> list[Interaction]:
        picked: list[Interaction] = []
        # Newest first, stopping early when a limit is given.
        for interaction in self._records(
            _INTERACTIONS, since=since, needle=b'"success":false', newest_first=True
        ):
            if interaction.result.success:
                continue
            picked.append(interaction)
            if limit is not None and len(picked) >= limit:
                break
        return picked

    def usage(self, trace_id: str | None = None, since: datetime | None = None) -> Usage:
        # Budgets run before every call: count on raw dicts, no model validation.
        needle = _json_field(b"trace_id", trace_id) if trace_id is not None else None
        calls, cost, tokens = 0, 0.0, 0
        for data in self._raw(_INTERACTIONS, since=since, needle=needle):
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
