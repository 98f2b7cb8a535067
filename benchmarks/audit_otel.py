"""What OpenTelemetry spans add to a recorded agent call (``audit.otel``).

Run: ``PYTHONPATH=plugins .venv/bin/python benchmarks/audit_otel.py [--calls 2000] [--json]``.

Per call: ``AuditRecorder.record_attempt`` plus the verdict event (the attempt's span and the
call's), on the JSONL store, with the realistic prompt and answer of
``benchmarks/audit_append.py``:

- ``off``: nothing configured: the recorder holds no span sink (the only mode that runs on a
  tree without ``audit/otel_spans.py``, so it compares with the code before spans existed);
- ``on``: a tracer provider with the BatchSpanProcessor the OTLP path uses, its exporter
  dropping the spans (the export runs on the processor's thread, not the task's);
- ``on+content``: the same with ``capture_content: true``.

The modes run in interleaved rounds so the machine's load weighs on each alike.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from audit_append import realistic_call

from autofix.audit.events import EventName
from autofix.audit.recorder import AuditRecorder
from autofix.audit.stores.jsonl import JsonlStore
from autofix.audit.telemetry import NullStats


def _span_sink(capture_content: bool) -> Any:
    # Imported here: the off mode must run where autofix has no span module.
    from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
    from opentelemetry.sdk.trace.export import (
        BatchSpanProcessor,
        SpanExporter,
        SpanExportResult,
    )

    from autofix.audit.otel_spans import OtelSpans
    from autofix.config import OtelSettings

    class Dropped(SpanExporter):
        def export(self, spans: Sequence[ReadableSpan]) -> SpanExportResult:
            return SpanExportResult.SUCCESS

    provider = TracerProvider()
    provider.add_span_processor(BatchSpanProcessor(Dropped()))
    return OtelSpans(OtelSettings(capture_content=capture_content), provider)


def _recorder(directory: Path, mode: str) -> AuditRecorder:
    store = JsonlStore(directory / f"{mode}.jsonl")
    if mode == "off":
        return AuditRecorder(store, stats=NullStats())
    return AuditRecorder(store, stats=NullStats(), spans=_span_sink(mode == "on+content"))


def _one_call(recorder: AuditRecorder, trace: str, attempt: int) -> Callable[[], None]:
    """The timed part of one call: its record and its verdict (the events before it are not)."""
    envelope, result = realistic_call(trace, attempt=attempt)
    recorder.event(EventName.AGENT_STARTED, envelope=envelope, attempt=attempt)
    recorder.event(EventName.AGENT_COMPLETED, envelope=envelope, attempt=attempt)

    def call() -> None:
        recorder.record_attempt(envelope, result, latency_ms=41_700)
        name = EventName.RESULT_ACCEPTED if result.success else EventName.RESULT_REJECTED
        recorder.event(name, envelope=envelope, attempt=attempt)

    return call


def measure(modes: list[str], calls: int, rounds: int = 5) -> dict[str, dict[str, float]]:
    timings: dict[str, list[float]] = {mode: [] for mode in modes}
    with tempfile.TemporaryDirectory() as tmp:
        recorders = {mode: _recorder(Path(tmp), mode) for mode in modes}
        for round_number in range(rounds):
            for mode in modes:
                recorder = recorders[mode]
                prepared = [
                    _one_call(recorder, f"bench-{mode}-{round_number}-{n}", 1 + n % 2)
                    for n in range(calls // rounds)
                ]
                for call in prepared:
                    began = time.perf_counter()
                    call()
                    timings[mode].append(time.perf_counter() - began)
    ms = 1000.0
    report: dict[str, dict[str, float]] = {}
    for mode, samples in timings.items():
        ordered = sorted(samples)
        report[mode] = {
            "median_ms": statistics.median(ordered) * ms,
            "p95_ms": ordered[int(len(ordered) * 0.95)] * ms,
        }
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--calls", type=int, default=2000, help="recorded calls per mode")
    parser.add_argument(
        "--off-only", action="store_true", help="only the off mode (any autofix version)"
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    modes = ["off"] if args.off_only else ["off", "on", "on+content"]
    report = measure(modes, args.calls)
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        for mode, figures in report.items():
            print(
                f"{mode:>11}: median {figures['median_ms']:.3f} ms, p95 {figures['p95_ms']:.3f} ms"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
