"""Audit stores at scale: the per-call queries on JSONL and SQL, as ratios against JSONL.

Run: ``PYTHONPATH=plugins .venv/bin/python benchmarks/audit_store.py
[--records 100000,1000000] [--stores jsonl,sqlite,postgresql] [--quick] [--json]``.

For each history size, one deterministic history (DAG runs over 90 days, several tasks and
attempts per run, agent events beside them) is loaded into each store, then in the same process:

- budget check: what the recorder runs before every call (``BudgetGuard.check`` with run and
  day limits set; on a store with reservations, reserve and release instead);
- ``recent(20)``; a run's attempts (``by_trace``); ``append`` of one realistic attempt;
- the fill time (not a target), the disk it takes and the peak memory growth of this process.

Each measure is called up to ``--repeat`` times, stopping early after ``--seconds``, at least
three times; medians and p95 are printed with the ratio JSONL median / store median.
JSONL is ``JsonlStore(path, rotate_max_bytes=None)``: one file, what a budget check reads.
``postgresql`` runs against ``--pg-url`` or ``$AUTOFIX_BENCH_PG_URL``; without one, the script
starts a throwaway PostgreSQL 15 (``/usr/lib/postgresql/15/bin``) on loopback when it can.
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import json
import os
import platform
import random
import resource
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from autofix.audit.budget import BudgetGuard
from autofix.audit.envelope import Envelope, Interaction, InteractionResult, RetryPolicy
from autofix.audit.events import AuditEvent
from autofix.audit.health import ChainLink, HealthFacts, chain_link
from autofix.audit.stores.base import AuditStore
from autofix.audit.stores.jsonl import JsonlStore
from autofix.config import BudgetSettings
from autofix.result import ErrorCategory, FieldError, RetryClass, Status

GUARD = "budget check, BudgetGuard.check"
TARGETS_MS = {
    "budget check": 5.0,
    GUARD: 5.0,
    "recent(20)": 5.0,
    "by_trace (a run)": 20.0,
    "append": 2.0,
}
NOW = datetime(2026, 11, 28, 15, 0, tzinfo=UTC)  # the benchmark's clock: the history ends here
DAYS = 90
DAGS = [
    f"{team}_{what}"
    for team in ("payments", "search", "infra", "web")
    for what in (
        "ci_fix",
        "nightly",
        "lint_fix",
        "deps",
        "flaky",
        "release",
        "docs",
        "perf",
        "etl",
        "api",
    )
]
OPERATIONS = ["fix_ci", "classify_failure", "triage", "summarize_log", "fix_lint", "write_test"]
AGENTS = [
    ("claude-code", "claude", "anthropic", "claude-sonnet-4"),
    ("codex", "codex", "openai", "gpt-5.5"),
    ("gemini", "gemini", "google", "gemini-2.5-pro"),
    ("local", "openai", "ollama", "qwen2.5-coder:7b"),
]
STRATEGIES = ["feedback", "seed_offset", "constrained", "escalate"]


# ---- a deterministic history --------------------------------------------------------------


def _prompt(size: int, n: int) -> str:
    lines = [
        f"tests/test_ledger.py::test_balance_{k} FAILED - AssertionError: assert {k * 7} == {k + n}"
        for k in range(max(1, size // 90))
    ]
    return "You are fixing a failing CI job.\nReturn JSON matching the schema.\n\n" + "\n".join(
        lines
    )


def _output(size: int) -> str:
    patches = [
        {
            "path": f"src/ledger_{k}.py",
            "patch": f"@@ -{k},3 +{k},3 @@\n-    return x\n+    return x + {k}\n",
        }
        for k in range(max(1, size // 80))
    ]
    return json.dumps(
        {"files": patches, "summary": "Off-by-one in the slice start.", "confidence": 0.8}
    )


def _template() -> dict[str, Any]:
    """One attempt as the store writes it (pydantic's key order: ``kind`` first)."""
    envelope = Envelope(
        trace_id="t",
        causation_id="c",
        operation="fix_ci",
        agent_id="claude-code",
        agent_type="claude",
        provider="anthropic",
        model="claude-sonnet-4",
        instructions="x",
        context={"cwd": "/srv/repos/acme", "attempt": 1},
        tools_allowed=["Read", "Edit", "Bash(pytest:*)"],
        expected_output_schema={"type": "object", "required": ["files", "summary", "confidence"]},
        response_format="json_schema",
        retry_policy=RetryPolicy(max_attempts=3),
    )
    result = InteractionResult(raw_output="y", model="claude-sonnet-4", cost_source="reported")
    return Interaction(envelope=envelope, result=result).model_dump(mode="json")


_ERRORS = [
    FieldError(path="$.confidence", category=ErrorCategory.RANGE_VIOLATION, message="must be <= 1"),
    FieldError(
        path="$.files[3].path", category=ErrorCategory.PATTERN_VIOLATION, message="must end in .py"
    ),
    FieldError(path="$.summary", category=ErrorCategory.REQUIRED_MISSING, message="field required"),
]
_ERRORS_JSON = [error.model_dump(mode="json") for error in _ERRORS]


@dataclass
class History:
    """What the generator made: counts, and the runs the queries look up."""

    interactions: int = 0
    events: int = 0
    runs: int = 0
    today_runs: list[str] = field(default_factory=list)
    sample_runs: list[str] = field(default_factory=list)


def generate(records: int, seed: int = 24) -> Iterator[dict[str, Any]]:
    """``records`` attempts, oldest first, each followed by its events, as stored dicts.

    A DAG run has 1-4 agent tasks (operations); a task makes 1-3 attempts (an invalid answer is
    retried with feedback). Prompts are 1-6 KB and answers 0.2-2 KB. Runs are spread evenly
    over the ``DAYS`` days before ``NOW``. The dicts are reused: copy what you keep.
    """
    rng = random.Random(seed)
    prompts = [_prompt(rng.randint(1_000, 6_000), n) for n in range(32)]
    outputs = [_output(rng.randint(200, 2_000)) for _ in range(32)]
    record = _template()
    envelope, result = record["envelope"], record["result"]
    event: dict[str, Any] = AuditEvent(name="agent.started", trace_id="t").model_dump(mode="json")
    start = NOW - timedelta(days=DAYS)
    step = timedelta(days=DAYS) / max(records, 1)
    made = 0
    run_n = 0
    while made < records:
        dag = DAGS[rng.randrange(len(DAGS))]
        run_n += 1
        trace = f"scheduled__{(start + step * made):%Y-%m-%dT%H:%M:%S}+00:00__{dag}__{run_n}"
        for task_n in range(rng.randint(1, 4)):
            operation = OPERATIONS[rng.randrange(len(OPERATIONS))]
            agent_id, agent_type, provider, model = AGENTS[rng.randrange(len(AGENTS))]
            attempts = rng.choices((1, 2, 3), weights=(70, 20, 10))[0]
            previous = f"{dag}.task_{task_n}#try1"
            for attempt in range(1, attempts + 1):
                if made >= records:
                    return
                moment = (start + step * made).isoformat()
                envelope_id = f"{seed:02x}{made:014x}{rng.getrandbits(64):016x}"
                success = attempt == attempts and rng.random() < 0.9
                envelope.update(
                    envelope_id=envelope_id,
                    trace_id=trace,
                    causation_id=previous,
                    operation=operation,
                    agent_id=agent_id,
                    agent_type=agent_type,
                    provider=provider,
                    model=model,
                    instructions=prompts[made % 32],
                    instructions_chars=len(prompts[made % 32]),
                    created_at=moment,
                    envelope_hash=f"{rng.getrandbits(64):016x}",
                    dag_id=dag,
                    task_id=f"task_{task_n}",
                    try_number=1,
                )
                envelope["context"] = {
                    "cwd": f"/srv/repos/{dag}",
                    "attempt": attempt,
                    "strategy": STRATEGIES[attempt % len(STRATEGIES)],
                }
                input_tokens = rng.randint(800, 60_000)
                output_tokens = rng.randint(50, 4_000)
                result.update(
                    raw_output=outputs[made % 32],
                    raw_output_chars=len(outputs[made % 32]),
                    validation_passed=success,
                    validation_errors=[] if success else _ERRORS_JSON[: 1 + made % 3],
                    latency_ms=float(rng.randint(2_000, 180_000)),
                    input_tokens=input_tokens,
                    output_tokens=output_tokens,
                    thinking_tokens=rng.randint(0, 2_000),
                    model=model,
                    cost_usd=None
                    if provider == "ollama"
                    else round(input_tokens * 3e-6 + output_tokens * 15e-6, 6),
                    cost_source="unknown" if provider == "ollama" else "reported",
                    attempt_number=attempt,
                    error=None if success else f"[{operation}] {1 + made % 3} validation errors",
                    success=success,
                    status=(Status.COMPLETED if success else Status.INVALID_OUTPUT).value,
                    retry_class=(RetryClass.NONE if success else RetryClass.INVALID_OUTPUT).value,
                    output_hash=f"{rng.getrandbits(64):016x}",
                )
                record["recorded_at"] = moment
                yield record
                for name in ("agent.started", "agent.completed"):
                    event.update(
                        event_id=f"{envelope_id}{name[6]}",
                        name=name,
                        trace_id=trace,
                        operation=operation,
                        envelope_id=envelope_id,
                        parent_id=previous,
                        causation_id=previous,
                        attempt=attempt,
                        timestamp=moment,
                    )
                    yield event
                previous = envelope_id
                made += 1


def write_jsonl(path: Path, records: int) -> History:
    """The history as JSONL lines, in bulk: the bytes the store writes, without a lock per line."""
    history = History()
    dumps = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False).encode
    today = NOW.replace(hour=0, minute=0, second=0, microsecond=0).isoformat()
    seen: set[str] = set()
    with path.open("w", encoding="utf-8", buffering=1 << 22) as handle:
        for data in generate(records):
            handle.write(dumps(data))
            handle.write("\n")
            if data["kind"] == "event":
                history.events += 1
                continue
            history.interactions += 1
            trace = data["envelope"]["trace_id"]
            if trace not in seen:
                seen.add(trace)
                history.runs += 1
                if history.runs % max(1, records // 40) == 1:
                    history.sample_runs.append(trace)
                if data["recorded_at"] >= today:
                    history.today_runs.append(trace)
    history.today_runs = history.today_runs[-20:]
    return history


def fresh_attempts(count: int, seed: int = 7) -> list[Interaction]:
    """``count`` new attempts (for the append measure), built before timing starts."""
    picked: list[Interaction] = []
    for data in generate(count * 2, seed=seed):
        if data["kind"] == "interaction":
            copy = json.loads(json.dumps(data))
            copy["recorded_at"] = NOW.isoformat()
            picked.append(Interaction.from_stored(copy))
            if len(picked) == count:
                break
    return picked


# ---- measuring ------------------------------------------------------------------------------


@dataclass
class Timing:
    calls: int
    median_ms: float
    p95_ms: float


def measure(call: Callable[[int], object], repeat: int, seconds: float) -> Timing:
    """Call ``call(n)`` up to ``repeat`` times (at least 3), stopping after ``seconds``."""
    times: list[float] = []
    deadline = time.perf_counter() + seconds
    for n in range(max(3, repeat)):
        began = time.perf_counter()
        call(n)
        times.append(time.perf_counter() - began)
        if n >= 2 and time.perf_counter() > deadline:
            break
    times.sort()
    p95 = times[min(len(times) - 1, round(0.95 * (len(times) - 1)))]
    return Timing(len(times), statistics.median(times) * 1e3, p95 * 1e3)


class PeakMemory:
    """Growth of this process's peak RSS over a block (Linux: ``clear_refs`` resets the peak)."""

    def __enter__(self) -> PeakMemory:
        self.grown_mb = 0.0
        self._reset = False
        with contextlib.suppress(OSError):
            Path("/proc/self/clear_refs").write_text("5")
            self._reset = True
        self._before = self._rss_kb("VmRSS") if self._reset else self._maxrss_kb()
        return self

    def __exit__(self, *exc: object) -> None:
        after = self._rss_kb("VmHWM") if self._reset else self._maxrss_kb()
        self.grown_mb = max(0.0, after - self._before) / 1024

    @staticmethod
    def _rss_kb(key: str) -> float:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith(key + ":"):
                return float(line.split()[1])
        return 0.0

    @staticmethod
    def _maxrss_kb() -> float:
        return float(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)


def budget_settings() -> BudgetSettings:
    """Run and day limits far above the history's spend: every check passes and counts both."""
    return BudgetSettings(
        max_calls_per_run=1_000,
        max_cost_per_run_usd=1_000.0,
        max_calls_per_day=10_000_000,
        max_cost_per_day_usd=10_000_000.0,
        max_tokens_per_day=10**12,
    )


@dataclass
class Subject:
    """One store under test: how to fill it, check a budget, and how much disk it takes."""

    name: str
    store: AuditStore
    fill: Callable[[Path, int], float]  # (the JSONL history, records) -> seconds
    disk_bytes: Callable[[], int]
    releases: bool = False  # a reservation to drop after each budget check
    budget_how: str = "BudgetGuard.reserve (here: BudgetGuard.check)"
    close: Callable[[], None] = lambda: None


def jsonl_subject(directory: Path) -> Subject:
    path = directory / "audit.jsonl"
    store = JsonlStore(path, rotate_max_bytes=None)
    return Subject(
        name="jsonl",
        store=store,
        fill=lambda source, _records: _link(source, path),
        disk_bytes=lambda: path.stat().st_size,
    )


def _link(source: Path, target: Path) -> float:
    began = time.perf_counter()
    shutil.copyfile(source, target)
    return time.perf_counter() - began


def _sql_class() -> Any:
    try:
        from autofix.audit.stores.sql import SqlStore  # optional until merged
    except ImportError:
        return None
    return SqlStore


def sql_subject(name: str, url: str, disk: Callable[[], int]) -> Subject:
    store = _sql_class()(url)
    return Subject(
        name=name,
        store=store,
        fill=lambda source, _records: bulk_fill(store, source),
        disk_bytes=disk,
        releases=True,
        budget_how="BudgetGuard.reserve, then SqlStore.release (the call never runs)",
        close=lambda: store.engine.dispose(),
    )


def interaction_row(
    data: dict[str, Any], chains: dict[tuple[str, str], ChainLink] | None = None
) -> dict[str, Any]:
    """The row ``SqlStore`` writes for one stored attempt, mapped from the dict without its
    lookups (10x faster to fill; ``check_rows_match`` compares it with the store's own
    mapping). ``chains``: the last attempt of each (DAG, operation) of this run so far."""
    envelope, result = data["envelope"], data["result"]
    item = Interaction.from_stored(data)  # the error key and the health facts are its own
    chains = {} if chains is None else chains
    key = (envelope["dag_id"], envelope["operation"])
    link = chains[key] = chain_link(item, chains.get(key))
    recorded = datetime.fromisoformat(data["recorded_at"])
    context = envelope["context"]
    errors = result["validation_errors"]
    return {
        "envelope_id": envelope["envelope_id"],
        "trace_id": envelope["trace_id"],
        "dag_id": envelope["dag_id"],
        "task_id": envelope["task_id"],
        "operation": envelope["operation"],
        "day": recorded.date(),
        "recorded_at": recorded,
        "attempt": result["attempt_number"],
        "status": result["status"],
        "success": result["success"],
        "failure_kind": result["failure_kind"],
        "error_category": errors[0]["category"] if errors else None,
        "strategy": context["strategy"],
        "hostname": envelope.get("hostname"),
        "agent": envelope["agent_id"] or None,
        "error_key": item.result.error_key,
        "cost_usd": result["cost_usd"],
        "tokens": result["input_tokens"] + result["output_tokens"] + result["thinking_tokens"],
        "v": data["v"],
        "envelope": envelope,
        "result": result,
    } | HealthFacts.of(item, link).columns()


def check_rows_match(store: Any, source: Path) -> None:
    """The fast mapping gives the store's own row for the first attempts of the history."""
    with source.open("rb") as handle, store._write_conn() as conn:
        for line in itertools.islice(handle, 300):
            data = json.loads(line)
            if data["kind"] != "interaction" or data["result"]["attempt_number"] > 1:
                continue  # a retry's task comes from its parent's row, not stored yet
            ours, theirs = interaction_row(data), store._row(Interaction.from_stored(data), conn)
            differ = {key for key in theirs if ours.get(key) != theirs[key]}
            for part in ("envelope", "result"):  # times may be spelled Z or +00:00
                if part in differ and set(ours[part]) == set(theirs[part]):
                    differ.discard(part)
            if differ:
                raise SystemExit(f"the benchmark's row mapping differs from SqlStore's: {differ}")


def bulk_fill(store: Any, source: Path, batch: int = 5_000) -> float:
    """The history into the SQL tables in bulk: the store's row mapping, one executemany
    INSERT per batch, the day counters summed once (``append`` per record would take hours)."""
    import sqlalchemy as sa  # only with the SQL store

    from autofix.audit.stores.sql_runs import rebuild_runs

    began = time.perf_counter()
    store.ensure_schema()
    check_rows_match(store, source)
    interactions, events, days = store.tables["interactions"], store.tables["events"], {}
    rows: list[dict[str, Any]] = []
    event_rows: list[dict[str, Any]] = []
    chains: dict[tuple[str, str], ChainLink] = {}  # of the run being read (written run by run)
    run = ""

    def flush(conn: Any) -> None:
        if rows:
            conn.execute(interactions.insert(), rows)
        if event_rows:
            conn.execute(events.insert(), event_rows)
        rows.clear()
        event_rows.clear()

    with store._write_conn() as conn, open(source, "rb") as handle:
        transaction = conn.begin()
        for line in handle:
            data = json.loads(line)
            if data["kind"] == "event":
                event_rows.append(
                    {
                        "event_id": data["event_id"],
                        "trace_id": data["trace_id"],
                        "name": data["name"],
                        "operation": data["operation"],
                        "timestamp": datetime.fromisoformat(data["timestamp"]),
                        "data": data,
                    }
                )
            else:
                if data["envelope"]["trace_id"] != run:
                    run = data["envelope"]["trace_id"]
                    chains.clear()
                row = interaction_row(data, chains)
                rows.append(row)
                spent = days.setdefault(row["day"], [0, 0.0, 0])
                spent[0] += 1
                spent[1] += row["cost_usd"] or 0.0
                spent[2] += row["tokens"]
            if len(rows) + len(event_rows) >= batch:
                flush(conn)
                transaction.commit()
                transaction = conn.begin()
        flush(conn)
        rebuild_runs(conn, store.tables)  # what appending each attempt keeps up to date
        day_table = store.tables["days"]
        conn.execute(sa.delete(day_table))
        conn.execute(
            day_table.insert(),
            [
                {"day": d, "calls": c, "cost_usd": cost, "tokens": t}
                for d, (c, cost, t) in days.items()
            ],
        )
        transaction.commit()
    if store.dialect == "postgresql":
        with store.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
            conn.exec_driver_sql("VACUUM ANALYZE")
    else:
        with store.engine.connect() as conn:
            conn.exec_driver_sql("ANALYZE")
    return time.perf_counter() - began


def run_subject(
    subject: Subject, history: History, source: Path, args: argparse.Namespace
) -> dict[str, Any]:
    row: dict[str, Any] = {"store": subject.name}
    with PeakMemory() as fill_memory:
        row["fill_s"] = subject.fill(source, history.interactions)
    row["fill_peak_rss_mb"] = fill_memory.grown_mb
    row["disk_mb"] = subject.disk_bytes() / 1e6
    runs = history.today_runs or history.sample_runs
    guard = BudgetGuard(subject.store, budget_settings(), clock=lambda: NOW)

    def budget(trace: str) -> None:
        reservation, _ = guard.reserve(trace)  # what the recorder runs before every call
        if subject.releases:
            subject.store.release(reservation)  # type: ignore[attr-defined]

    fresh = fresh_attempts(max(3, args.appends))
    measures: dict[str, Callable[[int], object]] = {
        "budget check": lambda n: budget(runs[n % len(runs)]),
        "recent(20)": lambda n: subject.store.recent(20),
        "by_trace (a run)": lambda n: subject.store.by_trace(
            history.sample_runs[n % len(history.sample_runs)]
        ),
        "append": lambda n: subject.store.append(fresh[n % len(fresh)]),
    }
    if subject.releases:  # also the guard's read-only check, on the same store
        measures[GUARD] = lambda n: guard.check(runs[n % len(runs)])
    found = subject.store.by_trace(history.sample_runs[0])
    if not found:
        raise SystemExit(f"{subject.name}: by_trace found nothing for a run of the history")
    with PeakMemory() as query_memory:
        for what, call in measures.items():
            repeat = args.appends if what == "append" else args.repeat
            row[what] = measure(call, repeat, args.seconds).__dict__
    row["query_peak_rss_mb"] = query_memory.grown_mb
    row["budget_how"] = subject.budget_how
    subject.close()
    return row


# ---- PostgreSQL -----------------------------------------------------------------------------

PG_BIN = Path("/usr/lib/postgresql/15/bin")


@contextlib.contextmanager
def throwaway_postgres() -> Iterator[str | None]:
    """A PostgreSQL 15 cluster on a free loopback port, run as ``postgres``; None if it cannot."""
    if not (PG_BIN / "initdb").exists() or os.geteuid() != 0 or shutil.which("runuser") is None:
        yield None
        return
    directory = Path(tempfile.mkdtemp(prefix="autofix-bench-pg-"))  # postgres must reach it
    data = directory / "pgdata"
    data.mkdir()
    shutil.chown(directory, "postgres")
    shutil.chown(data, "postgres")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]

    def as_postgres(*command: str) -> None:
        subprocess.run(
            ["runuser", "-u", "postgres", "--", *command], check=True, capture_output=True
        )

    as_postgres(str(PG_BIN / "initdb"), "-D", str(data), "-A", "trust", "-U", "postgres")
    options = f"-p {port} -k {directory} -c listen_addresses=127.0.0.1 -c fsync=on"
    as_postgres(
        str(PG_BIN / "pg_ctl"),
        "-D",
        str(data),
        "-o",
        options,
        "-w",
        "-l",
        str(directory / "pg.log"),
        "start",
    )
    try:
        yield f"postgresql+psycopg://postgres@127.0.0.1:{port}/postgres"
    finally:
        with contextlib.suppress(subprocess.CalledProcessError):
            as_postgres(str(PG_BIN / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop")
        shutil.rmtree(directory, ignore_errors=True)


def _pg_disk(url: str) -> Callable[[], int]:
    def size() -> int:
        import sqlalchemy  # only with PostgreSQL

        engine = sqlalchemy.create_engine(url)
        with engine.connect() as connection:
            total = connection.execute(
                sqlalchemy.text(
                    "SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0) FROM pg_class c "
                    "JOIN pg_namespace n ON n.oid = c.relnamespace "
                    "WHERE c.relkind = 'r' AND n.nspname NOT IN ('pg_catalog', 'information_schema')"
                )
            ).scalar_one()
        engine.dispose()
        return int(total)

    return size


# ---- report ---------------------------------------------------------------------------------


def print_table(records: int, history: History, rows: list[dict[str, Any]]) -> None:
    print(
        f"\n## {records:,} attempts ({history.events:,} events, {history.runs:,} runs, "
        f"{DAYS} days)\n"
    )
    print("| store | fill s | disk MB | peak RSS growth, fill / queries MB | budget check by |")
    print("|---|---:|---:|---:|---|")
    for row in rows:
        print(
            f"| {row['store']} | {row['fill_s']:.1f} | {row['disk_mb']:,.0f} | "
            f"{row['fill_peak_rss_mb']:.0f} / {row['query_peak_rss_mb']:.0f} | {row['budget_how']} |"
        )
    baseline = next((row for row in rows if row["store"] == "jsonl"), None)
    print("\n| measure (target) | store | calls | median ms | p95 ms | JSONL / store, medians |")
    print("|---|---|---:|---:|---:|---:|")
    for what, target in TARGETS_MS.items():
        for row in rows:
            timing = row.get(what)
            if timing is None:
                continue
            ratio = "baseline" if row is baseline else "n/a"
            if baseline is not None and row is not baseline:
                # The guard on JSONL is JSONL's budget check.
                base = baseline.get(what) or baseline["budget check"]
                times = base["median_ms"] / max(timing["median_ms"], 1e-6)
                ratio = f"{times:,.0f}x" if times >= 10 else f"{times:.2f}x"
            mark = "" if timing["median_ms"] < target and timing["p95_ms"] < target else " (over)"
            print(
                f"| {what} (< {target:g} ms) | {row['store']} | {timing['calls']} | "
                f"{timing['median_ms']:,.3f} | {timing['p95_ms']:,.3f}{mark} | {ratio} |"
            )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument(
        "--records", default="100000,1000000", help="history sizes, comma separated"
    )
    parser.add_argument("--stores", default="jsonl,sqlite,postgresql", help="comma separated")
    parser.add_argument("--repeat", type=int, default=200, help="calls per query measure, at most")
    parser.add_argument("--appends", type=int, default=500, help="appends measured")
    parser.add_argument("--seconds", type=float, default=30.0, help="time per measure, at most")
    parser.add_argument("--pg-url", default=os.environ.get("AUTOFIX_BENCH_PG_URL", ""))
    parser.add_argument("--quick", action="store_true", help="small sizes: a smoke run")
    parser.add_argument("--json", action="store_true", help="also print the results as JSON")
    args = parser.parse_args(argv)
    if args.quick:
        args.records, args.repeat, args.appends, args.seconds = "2000", 10, 20, 2.0
    sizes = [int(size.replace("_", "")) for size in args.records.split(",") if size.strip()]
    wanted = [name.strip() for name in args.stores.split(",") if name.strip()]
    unknown = set(wanted) - {"jsonl", "sqlite", "postgresql"}
    if unknown:
        parser.error(f"unknown store(s) {sorted(unknown)}: choose from jsonl, sqlite, postgresql")
    if "jsonl" not in wanted:
        wanted.insert(0, "jsonl")  # the baseline of every ratio
    if _sql_class() is None and set(wanted) - {"jsonl"}:
        print("note: autofix.audit.stores.sql is not installed here: JSONL only", file=sys.stderr)
        wanted = ["jsonl"]

    print(
        f"python {platform.python_version()}, {os.cpu_count()} CPUs, {platform.machine()}, "
        f"load average {os.getloadavg()[0]:.1f}"
    )
    results: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="autofix-audit-scale-") as tmp:
        directory = Path(tmp)
        pg_url = args.pg_url
        with contextlib.ExitStack() as stack:
            if "postgresql" in wanted and not pg_url:
                pg_url = stack.enter_context(throwaway_postgres()) or ""
                if not pg_url:
                    print("note: no PostgreSQL reachable or startable: skipped", file=sys.stderr)
                    wanted.remove("postgresql")
            for records in sizes:
                source = directory / f"history-{records}.jsonl"
                began = time.perf_counter()
                history = write_jsonl(source, records)
                generated_s = time.perf_counter() - began
                rows = []
                for name in wanted:
                    subject = _subject(name, directory / f"{name}-{records}", pg_url, records)
                    rows.append(run_subject(subject, history, source, args))
                source.unlink()
                print(f"\n(history generated and written as JSONL in {generated_s:.1f} s)")
                print_table(records, history, rows)
                results.append({"records": records, "history": history.__dict__, "rows": rows})
    if args.json:
        print(json.dumps(results, indent=2, default=str))
    return 0


def _subject(name: str, directory: Path, pg_url: str, records: int) -> Subject:
    directory.mkdir(parents=True)
    if name == "jsonl":
        return jsonl_subject(directory)
    if name == "sqlite":
        path = directory / "audit.db"
        return sql_subject(
            name,
            f"sqlite:///{path}",
            lambda: sum(p.stat().st_size for p in directory.glob("audit.db*")),
        )
    database_url = _fresh_database(pg_url, f"autofix_bench_{records}")
    return sql_subject(name, database_url, _pg_disk(database_url))


def _fresh_database(url: str, database: str) -> str:
    """An empty database per history size on the server at ``url``; its URL."""
    import sqlalchemy  # only with PostgreSQL

    engine = sqlalchemy.create_engine(url, isolation_level="AUTOCOMMIT")
    with engine.connect() as connection:
        connection.execute(sqlalchemy.text(f'DROP DATABASE IF EXISTS "{database}"'))
        connection.execute(sqlalchemy.text(f'CREATE DATABASE "{database}"'))
    engine.dispose()
    return sqlalchemy.make_url(url).set(database=database).render_as_string(hide_password=False)


if __name__ == "__main__":
    sys.exit(main())
