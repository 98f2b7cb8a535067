"""S3Store: one object per attempt, for workers that share no disk."""

from __future__ import annotations

import json
import logging
import random
import time
from collections.abc import Callable, Iterator
from datetime import datetime
from typing import TYPE_CHECKING, Any, TypeVar

from autofix.audit.envelope import Interaction, aware
from autofix.audit.events import AuditEvent
from autofix.audit.stores.base import (
    AuditStore,
    Record,
    load_record,
    record_time,
    since_ok,
)
from autofix.errors import AuditWriteError
from autofix.redact import redact

if TYPE_CHECKING:
    from mypy_boto3_s3 import S3Client

log = logging.getLogger("autofix.audit")

T = TypeVar("T")


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
        stamp = aware(event.timestamp).strftime("%Y%m%dT%H%M%S%f")
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
                    modified = aware(item["LastModified"])
                    if since is None or modified >= aware(since):
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

    def _interaction_keys(self, listed: list[tuple[datetime, str]]) -> list[str]:
        # Attempts are the .json objects outside ``events/``.
        return [key for _, key in listed if not self._is_event_key(key) and key.endswith(".json")]

    def _load(self, model: type[Record], key: str) -> Record | None:
        data = self._get_json(key)
        return load_record(model, data) if data else None

    def _load_sorted(
        self, model: type[Record], keys: list[str], since: datetime | None
    ) -> list[Record]:
        """The records at ``keys`` made at or after ``since``, oldest first."""
        loaded = [
            record
            for key in keys
            if (record := self._load(model, key)) is not None and since_ok(record, since)
        ]
        loaded.sort(key=lambda record: aware(record_time(record)))
        return loaded

    def iter_all(self, since: datetime | None = None) -> Iterator[Interaction]:
        keys = self._interaction_keys(self._list(self._base(), since))
        return iter(self._load_sorted(Interaction, keys, since))

    def _iter_newest_first(self) -> Iterator[Interaction]:
        # Fetch lazily from the newest object back, so recent(n) costs n GETs after the LIST.
        for key in reversed(self._interaction_keys(self._list(self._base()))):
            interaction = self._load(Interaction, key)
            if interaction is not None:
                yield interaction

    def _trace_candidates(self, trace_id: str) -> list[Interaction]:
        keys = self._interaction_keys(self._list(self._base(trace_id)))
        return self._load_sorted(Interaction, keys, None)

    def _envelope_candidates(self, envelope_id: str) -> Iterator[Interaction]:
        marker = f"/{_key_part(envelope_id)}-"
        keys = [key for key in self._interaction_keys(self._list(self._base())) if marker in key]
        return reversed(self._load_sorted(Interaction, keys, None))

    def iter_events(self, since: datetime | None = None) -> Iterator[AuditEvent]:
        keys = [key for _, key in self._list(self._base(), since) if self._is_event_key(key)]
        return iter(self._load_sorted(AuditEvent, keys, since))

    def _trace_event_candidates(self, trace_id: str) -> list[AuditEvent]:
        keys = [key for _, key in self._list(self._base(trace_id) + "events/")]
        return self._load_sorted(AuditEvent, keys, None)
