"""Audit stores: one query API over a JSONL file (default), S3, or memory, and the factory."""

from __future__ import annotations

from autofix.audit.stores.base import AuditStore
from autofix.audit.stores.jsonl import JsonlStore
from autofix.audit.stores.memory import MemoryStore
from autofix.audit.stores.s3 import S3Store
from autofix.config import AuditSettings, resolve
from autofix.errors import ConfigError

__all__ = ["build_store", "store_from_uri"]


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
