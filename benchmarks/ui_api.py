"""The autofix view's API at scale: each page's request against an audit store of N records.

Run: ``PYTHONPATH=plugins:tests .venv/bin/python benchmarks/ui_api.py [--records 100000]
[--stores jsonl,sqlite] [--seconds 10] [--json]``.

The history is ``audit_store.generate``'s (DAG runs over 90 days across 40 DAGs, 1-4 agent
tasks per run, 1-3 attempts each, with events), loaded into each store as that benchmark loads
it. Every request goes through the view's FastAPI app (``build_ui_app``) with FastAPI's
TestClient, in this process, as a user who may read all 40 DAGs; the access check is the
tests' stand-in (a header), so Airflow's own check (one metadata-database query for the
readable DAGs) is not in these figures. Each request is made up to ``--repeat`` times
(at least 3, stopping after ``--seconds``); medians and p95 in ms, with the ratio
JSONL median / store median (JSONL: the default store, whose queries scan the file).
Target: every page's API within 200 ms at 100k records.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from audit_store import DAGS, bulk_fill, measure, write_jsonl
from fastapi.testclient import TestClient
from ui_support import ui_client

from autofix.audit.stores.base import AuditStore
from autofix.audit.stores.jsonl import JsonlStore
from autofix.audit.stores.sql import SqlStore

TARGET_MS = 200.0
USER = {"X-Test-User": "reader"}
STDERR = "\n".join(
    [
        "(node:4242) [DEP0040] DeprecationWarning: The `punycode` module is deprecated.",
        "npm warn deprecated inflight@1.0.6: This module is not supported",
    ]
    * 50
    + [
        "Traceback (most recent call last):",
        '  File "/srv/app/main.py", line 3, in <module>',
        "ZeroDivisionError: division by zero",
    ]
)


def requests(history_runs: list[str]) -> dict[str, Callable[[TestClient], Any]]:
    """The pages' requests: what each page asks when a user opens or filters it."""
    run_id = history_runs[len(history_runs) // 2]
    dag = next(dag for dag in DAGS if f"__{dag}__" in run_id)
    return {
        "runs: first page": lambda c: c.get("/api/runs", headers=USER),
        "runs: DAG + failed": lambda c: c.get(
            "/api/runs", params={"dag_id": DAGS[3], "status": "failed"}, headers=USER
        ),
        "runs: agent, page 20": lambda c: c.get(
            "/api/runs", params={"agent": "codex", "offset": 500, "limit": 25}, headers=USER
        ),
        "run: attempt tree": lambda c: c.get(
            "/api/run", params={"dag_id": dag, "run_id": run_id}, headers=USER
        ),
        "health: 14 days": lambda c: c.get("/api/health", headers=USER),
        "pattern tester: 103 lines": lambda c: c.post(
            "/api/patterns/test", json={"stderr": STDERR, "exit_code": 1}, headers=USER
        ),
    }


def time_store(
    name: str, store: AuditStore, runs: list[str], repeat: int, seconds: float
) -> dict[str, Any]:
    client = ui_client(store, {"reader": set(DAGS)})
    row: dict[str, Any] = {"store": name}
    for label, call in requests(runs).items():
        response = call(client)
        if response.status_code == 404:
            continue  # a page this build does not have
        if response.status_code != 200:
            raise SystemExit(f"{label} on {name}: {response.status_code} {response.text[:300]}")
        timing = measure(lambda _n, call=call: call(client), repeat, seconds)
        row[label] = {"calls": timing.calls, "median_ms": timing.median_ms, "p95_ms": timing.p95_ms}
    return row


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--records", type=int, default=100_000)
    parser.add_argument("--stores", default="jsonl,sqlite")
    parser.add_argument("--repeat", type=int, default=30)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="autofix-ui-bench-") as tmp:
        directory = Path(tmp)
        source = directory / "audit.jsonl"
        history = write_jsonl(source, args.records)
        runs = history.sample_runs
        rows = []
        for name in args.stores.split(","):
            if name == "jsonl":
                store: AuditStore = JsonlStore(source, rotate_max_bytes=None)
            elif name == "sqlite":
                store = SqlStore(f"sqlite:///{directory / 'audit.db'}")
                bulk_fill(store, source)
            else:
                raise SystemExit(f"unknown store {name!r}: use jsonl and/or sqlite")
            rows.append(time_store(name, store, runs, args.repeat, args.seconds))
    if args.json:
        print(json.dumps({"records": history.interactions, "rows": rows}, indent=2))
        return 0
    print(
        f"{history.interactions:,} attempts, {history.events:,} events, {history.runs:,} runs; "
        f"{platform.python_implementation()} {platform.python_version()}, {sys.platform}\n"
    )
    print("| request | store | calls | median ms | p95 ms | JSONL / store, medians |")
    print("|---|---|---:|---:|---:|---:|")
    baseline = {label: value for label, value in rows[0].items() if label != "store"}
    for label in baseline:
        for row in rows:
            if label not in row:
                continue
            timing = row[label]
            over = " (over)" if timing["p95_ms"] > TARGET_MS else ""
            ratio = (
                "baseline"
                if row is rows[0]
                else f"{baseline[label]['median_ms'] / timing['median_ms']:.2g}x"
            )
            print(
                f"| {label} (< {TARGET_MS:.0f} ms) | {row['store']} | {timing['calls']} | "
                f"{timing['median_ms']:.1f} | {timing['p95_ms']:.1f}{over} | {ratio} |"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
