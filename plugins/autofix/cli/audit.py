"""``autofix metrics`` and ``autofix report`` read an audit store and print what it says;
``autofix audit migrate`` and ``autofix audit export`` copy one store into another."""

from __future__ import annotations

import argparse
import sys
from datetime import UTC, datetime
from typing import Any

from autofix.audit.metrics import compute_metrics
from autofix.audit.prometheus import to_prometheus
from autofix.audit.stores import build_store, store_from_uri
from autofix.audit.stores.base import AuditStore
from autofix.audit.usage_report import build_report, parse_since, render
from autofix.config import load_config, resolve
from autofix.errors import AuditWriteError, ConfigError

EXIT_OK = 0
EXIT_USAGE = 2

STORE_HELP = (
    "a JSONL path, sqlite:///audit.db, postgresql+psycopg://..., or s3://bucket/prefix "
    "(default: audit section of config/autofix.yaml)"
)


def register(subparsers: Any) -> None:
    metrics = subparsers.add_parser(
        "metrics", help="print audit metrics as Prometheus text", description=to_prometheus.__doc__
    )
    metrics.add_argument("--store", help=STORE_HELP)
    metrics.add_argument("--config", help="path to autofix.yaml")
    metrics.add_argument(
        "--since", default="all", help="window: 7d, 24h, 30m, 2w, an ISO date, or all"
    )
    metrics.set_defaults(func=run_metrics)

    report = subparsers.add_parser(
        "report", help="summarise agent calls, retries, costs and recurring errors"
    )
    report.add_argument("--store", help=STORE_HELP)
    report.add_argument("--config", help="path to autofix.yaml")
    report.add_argument(
        "--since", default="7d", help="window: 7d (default), 24h, 30m, 2w, an ISO date, or all"
    )
    report.add_argument("--format", choices=("text", "json", "markdown"), default="text")
    report.add_argument("--top", type=int, default=5, help="rows in the top-N tables (default 5)")
    report.add_argument(
        "--failures", type=int, default=5, help="recent failed chains shown (default 5)"
    )
    report.set_defaults(func=run_report)

    audit = subparsers.add_parser("audit", help="move the audit trail between stores")
    commands = audit.add_subparsers(dest="audit_command", required=True)
    for name, help_text, description, to_help, run in (
        (
            "migrate",
            "copy every record and event into another store (JSONL into SQL), idempotently",
            "Copy attempts and events from --from into --to. Records already in an SQL "
            "target (same envelope id, same event id) are skipped, so it can run again.",
            "the store to fill, e.g. sqlite:///audit.db",
            run_migrate,
        ),
        (
            "export",
            "archive a store as JSONL (a file) or S3 objects",
            "Copy attempts and events from --from (default: the configured store) into "
            "a JSONL file or s3://bucket/prefix.",
            "s3://bucket/prefix or a .jsonl file",
            run_export,
        ),
    ):
        command = commands.add_parser(name, help=help_text, description=description)
        command.add_argument("--from", dest="source", help=f"the store to read: {STORE_HELP}")
        command.add_argument("--to", dest="target", required=True, help=to_help)
        command.add_argument("--config", help="path to autofix.yaml (for a default --from)")
        command.set_defaults(func=run)


def _open_store(args: argparse.Namespace) -> AuditStore:
    return _named_or_configured(args.store, args.config)


def _named_or_configured(uri: str | None, config: str | None) -> AuditStore:
    if uri:
        _require_file(uri)
        return store_from_uri(uri)
    return build_store(load_config(config).audit)


def _require_file(uri: str) -> None:
    """A store named on the command line that is not there is a typo, not an empty history."""
    if "://" in uri or uri == "memory:":
        return  # a database or a bucket: opening it says whether it is there
    path = resolve(uri.removeprefix("jsonl:"))
    if not path.is_file():
        raise ConfigError(
            f"no audit store at {path}: give the JSONL file the DAG writes "
            "(audit.path in config/autofix.yaml), or leave out --store to use it"
        )


def _usage_error(message: str) -> int:
    print(f"autofix: {message}", file=sys.stderr)
    return EXIT_USAGE


def run_metrics(args: argparse.Namespace) -> int:
    try:
        store = _open_store(args)
        since = parse_since(args.since)
    except (ConfigError, ValueError) as exc:
        return _usage_error(str(exc))
    sys.stdout.write(to_prometheus(compute_metrics(store.iter_all(since), now=datetime.now(UTC))))
    return EXIT_OK


def run_report(args: argparse.Namespace) -> int:
    try:
        store = _open_store(args)
        since = parse_since(args.since)
    except (ConfigError, ValueError) as exc:
        return _usage_error(str(exc))
    if args.top < 1 or args.failures < 0:
        return _usage_error("--top must be at least 1 and --failures at least 0")
    report = build_report(
        store.iter_all(since),
        store=store.describe(),
        since=since,
        top=args.top,
        failures=args.failures,
    )
    sys.stdout.write(render(report, args.format))
    return EXIT_OK


def copy_store(source: AuditStore, target: AuditStore) -> tuple[int, int]:
    """Every attempt and event of ``source`` into ``target``: (attempts, events) added.

    Into an SQL store, records it already holds are skipped (by envelope and event id), so a
    migration can run again; other targets append everything."""
    from autofix.audit.stores.sql import SqlStore

    if isinstance(target, SqlStore):
        return (
            target.import_interactions(source.iter_all()),
            target.import_events(source.iter_events()),
        )
    attempts = events = 0
    for interaction in source.iter_all():
        target.append(interaction)
        attempts += 1
    for event in source.iter_events():
        target.append_event(event)
        events += 1
    return attempts, events


def _copy(args: argparse.Namespace, verb: str) -> int:
    try:
        source = _named_or_configured(args.source, args.config)
        target = store_from_uri(args.target)
        if source.describe() == target.describe():
            return _usage_error(f"--from and --to are the same store ({source.describe()})")
        attempts, events = copy_store(source, target)
    except (ConfigError, AuditWriteError) as exc:
        return _usage_error(str(exc))
    print(
        f"{verb} {attempts} attempt(s) and {events} event(s) from {source.describe()} "
        f"to {target.describe()}"
    )
    return EXIT_OK


def run_migrate(args: argparse.Namespace) -> int:
    return _copy(args, "migrated")


def run_export(args: argparse.Namespace) -> int:
    from autofix.audit.stores.sql import SqlStore

    try:
        target = store_from_uri(args.target)
    except ConfigError as exc:
        return _usage_error(str(exc))
    if isinstance(target, SqlStore):
        return _usage_error(
            f"export writes an archive (s3://bucket/prefix or a .jsonl file), not {args.target!r}; "
            "use autofix audit migrate --to for a database"
        )
    return _copy(args, "exported")
