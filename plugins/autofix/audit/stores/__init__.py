"""Audit stores: one query API over a JSONL file (default), SQL, S3, or memory, and the factory."""

from __future__ import annotations

from typing import TYPE_CHECKING

from autofix.audit.stores.base import AuditStore
from autofix.audit.stores.jsonl import JsonlStore
from autofix.audit.stores.memory import MemoryStore
from autofix.audit.stores.s3 import S3Store
from autofix.config import AuditSettings, autofix_home, resolve
from autofix.errors import ConfigError

if TYPE_CHECKING:
    from autofix.audit.stores.sql import SqlStore

__all__ = ["build_store", "sql_url", "store_from_uri"]

# URL schemes that name a database (SQLAlchemy's backend names, with or without a driver).
SQL_SCHEMES = ("sqlite", "postgresql", "postgres", "mysql", "mariadb")
ACCEPTED_URIS = (
    "sqlite:///path/audit.db, postgresql+psycopg://user:pw@host:5432/db, mysql+pymysql://..., "
    "s3://bucket/prefix, memory:, a path ending in .jsonl, or jsonl:path"
)


def sql_url(settings: AuditSettings) -> str:
    """``audit.url``, else the embedded SQLite file under the autofix home.

    ``audit.conn_id`` is turned into a URL inside Airflow only
    (autofix.hooks.audit_connection), before the settings reach this function."""
    if settings.url:
        return settings.url
    if settings.conn_id:
        raise ConfigError(
            f"audit.conn_id {settings.conn_id!r} is an Airflow connection and can only be "
            "resolved inside Airflow; outside it (the autofix command line) set audit.url or "
            "AUTOFIX__AUDIT__URL to the database URL"
        )
    return f"sqlite:///{autofix_home() / 'logs' / 'autofix' / 'audit.db'}"


def _sql_store(url: str, schema: str | None = None) -> SqlStore:
    # Imported here: SQLAlchemy is loaded only by deployments that use it.
    from autofix.audit.stores.sql import SqlStore

    return SqlStore(url, schema=schema)


def build_store(settings: AuditSettings) -> AuditStore:
    """The store ``config/autofix.yaml`` asks for (``audit.store``)."""
    if settings.store == "memory":
        return MemoryStore()
    if settings.store == "s3":
        if not settings.bucket:
            raise ConfigError("audit.store is s3 but audit.bucket is not set")
        return S3Store(settings.bucket, settings.prefix)
    if settings.store == "sql":
        return _sql_store(sql_url(settings), settings.schema_)
    return JsonlStore(
        resolve(settings.path),
        rotate_max_bytes=settings.rotate_max_bytes,
        rotate_daily=settings.rotate_daily,
    )


def _scheme(uri: str) -> str | None:
    """The scheme of ``scheme:...``, or None for a plain path (a Windows drive letter too)."""
    head, sep, _ = uri.partition(":")
    if not sep or len(head) <= 1 or "/" in head or "\\" in head:
        return None
    return head.lower()


def store_from_uri(uri: str) -> AuditStore:
    """A store named on the command line: a database URL (``sqlite:///``, ``postgresql://``,
    ``mysql://``), ``s3://bucket/prefix``, ``memory:``, or a JSONL file (a ``.jsonl`` path, an
    existing file, or ``jsonl:path``). Anything else is a ConfigError naming the accepted forms."""
    scheme = _scheme(uri)
    if scheme == "s3":
        if not uri.startswith("s3://"):
            raise ConfigError(f"audit store URI {uri!r}: write s3://bucket/prefix")
        bucket, _, prefix = uri[len("s3://") :].partition("/")
        if not bucket:
            raise ConfigError(f"no bucket in audit store URI {uri!r}; use s3://bucket/prefix")
        return S3Store(bucket, prefix)
    if scheme == "memory" and uri == "memory:":
        return MemoryStore()
    if scheme == "jsonl":
        path = uri[len("jsonl:") :]
        if not path:
            raise ConfigError(
                f"audit store URI {uri!r} names no file; write jsonl:path/audit.jsonl"
            )
        return JsonlStore(resolve(path), rotate_max_bytes=None)
    if scheme is not None and scheme.split("+", 1)[0] in SQL_SCHEMES:
        backend = scheme.split("+", 1)[0]
        if not uri[len(scheme) + 1 :].startswith("//"):
            raise ConfigError(
                f"audit store URI {uri!r} is not a database URL: write {backend}:///path "
                f"(SQLite) or {backend}://user:pw@host/db; accepted: {ACCEPTED_URIS}"
            )
        return _sql_store(uri)
    if scheme is None and (uri.endswith(".jsonl") or resolve(uri).is_file()):
        return JsonlStore(resolve(uri), rotate_max_bytes=None)
    raise ConfigError(f"unknown audit store {uri!r}; accepted: {ACCEPTED_URIS}")
