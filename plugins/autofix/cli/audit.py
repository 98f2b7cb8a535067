"""``autofix metrics`` and ``autofix report``: read an audit store, print what it says."""

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
from autofix.errors import ConfigError

EXIT_OK = 0
EXIT_USAGE = 2

STORE_HELP = "a JSONL path or s3://bucket/prefix (default: audit section of config/autofix.yaml)"


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


def _open_store(args: argparse.Namespace) -> AuditStore:
    if args.store:
        _require_file(args.store)
        return store_from_uri(args.store)
    return build_store(load_config(args.config).audit)


def _require_file(uri: str) -> None:
    """A store named on the command line that is not there is a typo, not an empty history."""
    if uri.startswith("s3://") or uri == "memory:":
        return
    path = resolve(uri)
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
