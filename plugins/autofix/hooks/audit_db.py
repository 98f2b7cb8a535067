"""The SQL audit store's database from an Airflow Connection (``audit.conn_id``)."""

from __future__ import annotations

from typing import Any

from airflow.sdk import BaseHook
from airflow.sdk.exceptions import AirflowNotFoundException

from autofix.config import AuditSettings
from autofix.errors import ConfigError
from autofix.hosting import bridge_airflow_masker
from autofix.redact import register_secret

# Connection type → SQLAlchemy driver name. MySQL is accepted but untested.
DRIVERS = {
    "postgres": "postgresql+psycopg",
    "postgresql": "postgresql+psycopg",
    "mysql": "mysql+pymysql",
    "sqlite": "sqlite",
}


def connection_url(conn: Any) -> str:
    """A SQLAlchemy URL from a Connection: its type picks the driver, ``schema`` is the
    database; for sqlite the host is the file's path."""
    import sqlalchemy as sa

    conn_type = str(conn.conn_type or "").lower()
    driver = DRIVERS.get(conn_type)
    if driver is None:
        raise ConfigError(
            f"audit.conn_id {conn.conn_id!r} has connection type {conn_type!r}; the audit "
            f"store takes {', '.join(sorted(DRIVERS))}. Next: change its type, or set audit.url"
        )
    if driver == "sqlite":
        return f"sqlite:///{conn.host}"
    if conn.password:
        register_secret(conn.password)  # and Airflow's mask_secret, through the bridge
    url = sa.URL.create(
        driver,
        username=conn.login or None,
        password=conn.password or None,
        host=conn.host or None,
        port=int(conn.port) if conn.port else None,
        database=conn.schema or None,
    )
    return url.render_as_string(hide_password=False)


def with_connection_url(settings: AuditSettings) -> AuditSettings:
    """``settings`` with ``url`` set from ``conn_id`` (store sql, no url given); as given
    otherwise. ConfigError when the Connection does not exist."""
    if settings.store != "sql" or settings.url or not settings.conn_id:
        return settings
    bridge_airflow_masker()
    try:
        conn = BaseHook.get_connection(settings.conn_id)
    except AirflowNotFoundException as exc:
        raise ConfigError(
            f"audit.conn_id {settings.conn_id!r}: no such Connection. Next: create it (Admin → "
            "Connections, type Postgres: host, port, login, password, schema = the database), "
            "or set audit.url"
        ) from exc
    return settings.model_copy(update={"url": connection_url(conn)})
