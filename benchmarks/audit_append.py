"""Audit store benchmark: append throughput, query time, and the added time per agent call.

Run: ``PYTHONPATH=plugins .venv/bin/python benchmarks/audit_append.py [--records 100000] [--json]``.
(The stores compared at 100k and 1M records: ``benchmarks/audit_store.py``.)

- appends/s for 1 and 4 writer processes on one JSONL file (realistic ~6 KB records);
- query times over the whole file (by trace, by envelope id, recent, failures, usage, full scan);
- per agent call: building the Interaction from a ParseResult (redaction + hashing + bounds)
  plus the append, i.e. what ``AuditRecorder.record_attempt`` adds to a call.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from autofix.audit.envelope import Envelope, Interaction, RetryPolicy, interaction_from_parse_result
from autofix.audit.recorder import AuditRecorder
from autofix.audit.stores.jsonl import JsonlStore
from autofix.audit.telemetry import NullStats
from autofix.redact import redact
from autofix.result import ErrorCategory, FieldError, ParseResult, RetryClass, Status, TokenUsage

PROMPT = (
    "You are fixing a failing CI job for the repository `acme/payments`.\n"
    "Return JSON matching the schema: {files: [{path, patch}], summary, confidence}.\n\n"
    "## Failing output\n"
    + "\n".join(
        f"tests/test_ledger.py::test_balance_{n} FAILED - AssertionError: assert {n * 7} == {n * 7 + 1}"
        for n in range(25)
    )
    + "\n\n## Source\n"
    + "\n".join(
        f"def balance_{n}(ledger):\n    return sum(e.amount for e in ledger.entries[{n}:])"
        for n in range(25)
    )
)
OUTPUT = json.dumps(
    {
        "files": [
            {
                "path": f"src/ledger_{n}.py",
                "patch": f"@@ -{n},3 +{n},3 @@\n-    return x\n+    return x + {n}\n",
            }
            for n in range(12)
        ],
        "summary": "Off-by-one in the balance helpers; the slice start must be inclusive. " * 3,
        "confidence": 0.82,
    }
)


def realistic_call(trace: str, attempt: int = 1) -> tuple[Envelope, ParseResult]:
    envelope = Envelope(
        trace_id=trace,
        causation_id="fix_ci.attempt_1",
        operation="fix_ci",
        agent_id="claude-code",
        agent_type="claude",
        provider="anthropic",
        model="claude-sonnet-4",
        instructions=PROMPT,
        context={
            "repo": "acme/payments",
            "branch": "fix/ledger",
            "files": [f"src/ledger_{n}.py" for n in range(12)],
        },
        tools_allowed=["Read", "Edit", "Bash(pytest:*)"],
        expected_output_schema={"type": "object", "required": ["files", "summary", "confidence"]},
        response_format="json_schema",
        temperature=0,
        deterministic=True,
        retry_policy=RetryPolicy(max_attempts=3),
    )
    result = ParseResult(
        success=attempt > 1,
        status=Status.COMPLETED if attempt > 1 else Status.INVALID_OUTPUT,
        retry_class=RetryClass.NONE if attempt > 1 else RetryClass.INVALID_OUTPUT,
        operation="fix_ci",
        final_text=OUTPUT,
        error_message="" if attempt > 1 else "[fix_ci] 3 validation errors",
        field_errors=[]
        if attempt > 1
        else [
            FieldError(
                path="$.confidence",
                category=ErrorCategory.RANGE_VIOLATION,
                message="must be <= 1",
                actual="1.4",
            ),
            FieldError(
                path="$.files[3].path",
                category=ErrorCategory.PATTERN_VIOLATION,
                message="must end in .py",
            ),
            FieldError(
                path="$.summary", category=ErrorCategory.REQUIRED_MISSING, message="field required"
            ),
        ],
        cost_usd=0.0412,
        usage=TokenUsage(input_tokens=5120, output_tokens=930, thinking_tokens=210),
        duration_s=41.7,
        noise_lines=17,
        matched_rules=["npm-deprecation", "pytest-failed"],
        attempt=attempt,
    )
    return envelope, result


def _record(trace: str, n: int) -> Interaction:
    envelope, result = realistic_call(trace, attempt=1 + n % 2)
    return interaction_from_parse_result(envelope, result)


def _writer(path: str, count: int, worker: int, start: Any, out: Any) -> None:
    store = JsonlStore(path, rotate_max_bytes=None)
    record = _record(f"bench-{worker}", 0)
    start.wait()
    began = time.perf_counter()
    for n in range(count):
        record.envelope.envelope_id = f"{worker}-{n}"
        store.append(record)
    out.put(time.perf_counter() - began)


def appends_per_second(directory: Path, writers: int, per_writer: int) -> float:
    path = directory / f"append-{writers}.jsonl"
    context = multiprocessing.get_context("fork")
    start, out = context.Event(), context.Queue()
    procs = [
        context.Process(target=_writer, args=(str(path), per_writer, w, start, out))
        for w in range(writers)
    ]
    for proc in procs:
        proc.start()
    time.sleep(0.2)
    began = time.perf_counter()
    start.set()
    for proc in procs:
        proc.join()
    elapsed = time.perf_counter() - began
    lines = path.read_bytes().count(b"\n")
    assert lines == writers * per_writer, (lines, writers * per_writer)
    return writers * per_writer / elapsed


def fill(path: Path, records: int) -> tuple[str, str]:
    """Write ``records`` interactions over ~records/3 runs; returns a trace and an envelope id in the middle."""
    store = JsonlStore(path, rotate_max_bytes=None)
    template = _record("bench-0", 0).model_dump(mode="json")
    middle_trace = middle_id = ""
    with path.open(
        "ab"
    ) as handle:  # bulk load: same bytes the store writes, without a lock per line
        for n in range(records):
            template["envelope"]["trace_id"] = f"manual__run-{n // 3}"
            template["envelope"]["envelope_id"] = f"env-{n}"
            template["result"]["attempt_number"] = n % 3 + 1
            template["result"]["success"] = n % 3 == 2
            if n == records // 2:
                middle_trace, middle_id = template["envelope"]["trace_id"], f"env-{n}"
            handle.write(json.dumps(template, separators=(",", ":")).encode() + b"\n")
    assert store.get(middle_id) is not None
    return middle_trace, middle_id


def timed(fn: Callable[[], object], repeat: int = 3) -> float:
    best = float("inf")
    for _ in range(repeat):
        began = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - began)
    return best


def per_call_ms(directory: Path, calls: int = 2000) -> dict[str, float]:
    """What the operator's one call, ``AuditRecorder.record_attempt``, adds: building the
    Interaction (redaction, bounds, output hash), the append, the JSON log line, the stats.
    Plus the Envelope, built before the call (prompt redaction + envelope hash)."""
    store = JsonlStore(directory / "per-call.jsonl")
    recorder = AuditRecorder(store, stats=NullStats())
    inputs = [realistic_call(f"bench-call-{n}", attempt=1 + n % 2) for n in range(calls)]
    envelope_s, record_s = [], []
    for envelope, result in inputs:
        data = envelope.model_dump(exclude={"envelope_hash", "instructions_chars"})
        t0 = time.perf_counter()
        fresh = Envelope.model_validate(data)
        t1 = time.perf_counter()
        recorder.record_attempt(fresh, result, latency_ms=41_700)
        t2 = time.perf_counter()
        envelope_s.append(t1 - t0)
        record_s.append(t2 - t1)
    total = sorted(e + r for e, r in zip(envelope_s, record_s, strict=True))
    ms = 1000.0
    return {
        "record_bytes": len(store.recent(1)[0].model_dump_json()),
        "prompt_chars": len(PROMPT),
        "output_chars": len(OUTPUT),
        "envelope_median_ms": statistics.median(envelope_s) * ms,
        "record_attempt_median_ms": statistics.median(record_s) * ms,
        "audit_per_call_median_ms": statistics.median(total) * ms,
        "audit_per_call_p95_ms": total[int(len(total) * 0.95)] * ms,
        "redact_prompt_ms": timed(lambda: redact(PROMPT), repeat=20) * ms,
        # Worst ordinary case: words like "token" or "auth" make the key=value scan run.
        "redact_prompt_with_secret_words_ms": timed(
            lambda: redact(PROMPT + "\nrefresh the auth token"), repeat=20
        )
        * ms,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument(
        "--records", type=int, default=100_000, help="records for the query benchmark"
    )
    parser.add_argument("--appends", type=int, default=4000, help="appends per writer")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)

    results: dict[str, Any] = {"python": sys.version.split()[0], "cpus": os.cpu_count()}
    with tempfile.TemporaryDirectory(prefix="autofix-audit-bench-") as tmp:
        directory = Path(tmp)
        results["appends_per_s_1_writer"] = appends_per_second(directory, 1, args.appends)
        results["appends_per_s_4_writers"] = appends_per_second(directory, 4, args.appends)
        results.update(per_call_ms(directory))

        path = directory / "query.jsonl"
        trace, envelope_id = fill(path, args.records)
        store = JsonlStore(path, rotate_max_bytes=None)
        results["query_records"] = args.records
        results["query_file_mb"] = path.stat().st_size / 1e6
        results["query_by_trace_s"] = timed(lambda: store.by_trace(trace))
        results["query_get_s"] = timed(lambda: store.get(envelope_id))
        results["query_recent_20_s"] = timed(lambda: store.recent(20))
        results["query_failures_50_s"] = timed(lambda: store.failures(limit=50))
        results["query_usage_run_s"] = timed(lambda: store.usage(trace_id=trace))
        results["query_full_scan_s"] = timed(lambda: sum(1 for _ in store.iter_all()), repeat=1)

    if args.json:
        print(json.dumps(results, indent=2))
    else:
        width = max(len(key) for key in results)
        for key, value in results.items():
            shown = f"{value:,.3f}" if isinstance(value, float) else str(value)
            print(f"{key.ljust(width)}  {shown}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
