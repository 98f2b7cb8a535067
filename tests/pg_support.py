"""A throwaway PostgreSQL server for tests: initdb in a temporary folder, loopback only.

    server = start_postgres(tmp_dir)        # raises PostgresUnavailable with the reason
    url = server.create_database("audit")  # postgresql+psycopg://autofix@127.0.0.1:PORT/audit
    server.stop()

As root (this machine, CI), the server runs as the ``postgres`` system user, since PostgreSQL
refuses to run as root; otherwise as the current user.
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import socket
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

PG_USER = "autofix"
START_TIMEOUT_S = 30.0


class PostgresUnavailable(RuntimeError):
    """No PostgreSQL server can be started here; the message says why."""


def postgres_bindir() -> Path | None:
    """Where initdb and pg_ctl are: PATH, else the newest /usr/lib/postgresql/<n>/bin."""
    on_path = shutil.which("pg_ctl")
    if on_path and shutil.which("initdb"):
        return Path(on_path).parent
    found = sorted(
        glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"),
        key=lambda p: (
            int(Path(p).parent.parent.name) if Path(p).parent.parent.name.isdigit() else 0
        ),
    )
    return Path(found[-1]).parent if found else None


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _run_as() -> list[str]:
    """The prefix that runs a server command as a non-root user."""
    if os.geteuid() != 0:
        return []
    try:
        pwd.getpwnam("postgres")
    except KeyError:
        raise PostgresUnavailable(
            "running as root and there is no 'postgres' user to run PostgreSQL as"
        ) from None
    runuser = shutil.which("runuser")
    if runuser:
        return [runuser, "-u", "postgres", "--"]
    su = shutil.which("su")
    if su is None:
        raise PostgresUnavailable("running as root with neither runuser nor su")
    return [su, "postgres", "-s", "/bin/sh", "-c", 'exec "$0" "$@"']


@dataclass
class PostgresServer:
    bindir: Path
    datadir: Path
    port: int
    prefix: list[str] = field(default_factory=list)

    @property
    def host(self) -> str:
        return "127.0.0.1"

    def url(self, database: str = "postgres", driver: str = "psycopg") -> str:
        return f"postgresql+{driver}://{PG_USER}@{self.host}:{self.port}/{database}"

    def create_database(self, name: str) -> str:
        """A fresh database (dropped first if it exists); its SQLAlchemy URL."""
        import psycopg

        with psycopg.connect(
            host=self.host, port=self.port, user=PG_USER, dbname="postgres", autocommit=True
        ) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def stop(self) -> None:
        subprocess.run(
            [
                *self.prefix,
                str(self.bindir / "pg_ctl"),
                "-D",
                str(self.datadir),
                "-m",
                "fast",
                "-w",
                "stop",
            ],
            capture_output=True,
            check=False,
        )


def start_postgres(workdir: Path) -> PostgresServer:
    """initdb + pg_ctl start in ``workdir``, listening on 127.0.0.1 on a free port."""
    bindir = postgres_bindir()
    if bindir is None:
        raise PostgresUnavailable(
            "no PostgreSQL binaries (initdb, pg_ctl): apt-get install postgresql"
        )
    try:
        import psycopg  # noqa: F401
    except ImportError:
        raise PostgresUnavailable(
            "the psycopg driver is missing: pip install -e '.[dev]'"
        ) from None
    prefix = _run_as()
    workdir.mkdir(parents=True, exist_ok=True)
    datadir, sockets = workdir / "pgdata", workdir / "pgsock"
    for folder in (datadir, sockets):
        folder.mkdir(exist_ok=True)
    if prefix:
        owner = pwd.getpwnam("postgres")
        for folder in (datadir, sockets):
            os.chown(folder, owner.pw_uid, owner.pw_gid)
        # The server user must reach its folders through the temporary ones above them.
        for parent in [workdir, *workdir.parents]:
            if parent == Path("/"):
                break
            with contextlib.suppress(OSError):
                os.chmod(parent, os.stat(parent).st_mode | 0o711)
    init = subprocess.run(
        [
            *prefix,
            str(bindir / "initdb"),
            "-D",
            str(datadir),
            "-U",
            PG_USER,
            "--auth=trust",
            "-E",
            "UTF8",
            "--no-sync",
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    if init.returncode != 0:
        raise PostgresUnavailable(f"initdb failed: {init.stderr.strip()[-500:]}")
    port = free_port()
    options = f"-c listen_addresses=127.0.0.1 -p {port} -k {sockets} -c fsync=off"
    start = subprocess.run(
        [
            *prefix,
            str(bindir / "pg_ctl"),
            "-D",
            str(datadir),
            "-o",
            options,
            "-l",
            str(datadir / "server.log"),
            "-w",
            "-t",
            str(int(START_TIMEOUT_S)),
            "start",
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    server = PostgresServer(bindir, datadir, port, prefix)
    if start.returncode != 0:
        log = (datadir / "server.log").read_text(errors="replace")[-800:]
        server.stop()
        raise PostgresUnavailable(f"pg_ctl start failed: {start.stderr.strip()} {log}")
    deadline = time.monotonic() + START_TIMEOUT_S
    while True:
        try:
            with socket.create_connection((server.host, port), timeout=1):
                return server
        except OSError:
            if time.monotonic() > deadline:
                server.stop()
                raise PostgresUnavailable(f"PostgreSQL did not listen on port {port}") from None
            time.sleep(0.2)
