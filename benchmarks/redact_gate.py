"""Redaction of error-dense output: the hint gate on non-ASCII text (docs/benchmarks.md,
"Classifier", issue 26).

    PYTHONPATH=plugins:benchmarks:tests .venv/bin/python benchmarks/redact_gate.py [--slices 2000]

``redact`` on 16 KB slices of the corpus's real stderr at random offsets (the 16 KB parse
benchmark's slices), two ways in one process, alternated per round:
- baseline: the gate as it was before 2026-11-27, hints checked on ASCII text only (a slice
  with one non-ASCII character ran all 13 patterns);
- now: ``autofix.redact._mask_shapes_in``, hints checked wherever lower() folds as the (?i)
  patterns do.
Both give the same text on every slice (checked). Prints medians over rounds of the total and
the p99 per slice, and their ratios; then the same for the whole 16 KB ``ResponseParser.parse``
(project input and real stderr, as classify_throughput.latency feeds it) under each gate.
Measurements only.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from classify_throughput import build_input, build_real, parse_slices

import autofix.redact as redact_module
from autofix.parser import ResponseParser
from autofix.patterns.loader import PatternStore


def ascii_only_gate(text: str) -> str:
    """The baseline: ``_mask_shapes_in`` before 2026-11-27."""
    lowered = text.lower() if text.isascii() else None
    for pattern, replacement, hints, ignore_case in redact_module._GATED:
        if lowered is not None:
            haystack = lowered if ignore_case else text
            if not any(hint in haystack for hint in hints):
                continue
        text = pattern.sub(replacement, text)
    return text


def paired(
    arms: dict[str, Callable[[str], str]], call: Callable[[], list[float]], rounds: int
) -> None:
    """Per round each gate in turn; medians of the total and the p99, and baseline / now."""
    results: dict[str, list[tuple[float, float]]] = {name: [] for name in arms}
    for _ in range(rounds):
        for name, gate in arms.items():
            redact_module._mask_shapes_in = gate
            times = sorted(call())
            results[name].append((sum(times), times[int(len(times) * 0.99) - 1]))
    redact_module._mask_shapes_in = arms["now"]
    for name, rows in results.items():
        total = statistics.median(r[0] for r in rows) * 1e3
        p99 = statistics.median(r[1] for r in rows) * 1e3
        print(f"  {name:9} total {total:7.1f} ms  p99 {p99:6.3f} ms")
    pairs = list(zip(results["baseline"], results["now"], strict=True))
    speed = statistics.median(b[0] / n[0] for b, n in pairs)
    tail = statistics.median(b[1] / n[1] for b, n in pairs)
    print(f"  baseline / now: total {speed:.2f}x, p99 {tail:.2f}x")


def timed(calls: list[Callable[[], object]]) -> list[float]:
    times = []
    for call in calls:
        began = time.perf_counter()
        call()
        times.append(time.perf_counter() - began)
    return times


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--slices", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    arms = {"baseline": ascii_only_gate, "now": redact_module._mask_shapes_in}
    real = parse_slices(build_real(20), args.slices)
    texts = [piece.decode("utf-8", "replace") for piece in real]
    outputs = {}
    for name, gate in arms.items():
        redact_module._mask_shapes_in = gate
        outputs[name] = [redact_module.redact(t) for t in texts]
    redact_module._mask_shapes_in = arms["now"]
    assert outputs["baseline"] == outputs["now"], "the gates disagree"
    non_ascii = sum(not t.isascii() for t in texts)
    print(f"redact: {len(texts)} slices of 16 KB, {non_ascii} with non-ASCII text; same output")
    paired(arms, lambda: timed([lambda t=t: redact_module.redact(t) for t in texts]), args.rounds)
    store = PatternStore(Path(tempfile.gettempdir()) / "autofix-bench-no-such-file.yaml")
    response_parser = ResponseParser(store)
    for name, pieces in (("project", parse_slices(build_input(20), args.slices)), ("real", real)):
        for piece in pieces[:200]:  # warm-up, as classify_throughput.latency
            response_parser.parse(0, piece, b"", operation="bench")
        print(f"16 KB parse, {name} input:")
        calls = [lambda p=p: response_parser.parse(0, p, b"", operation="bench") for p in pieces]
        paired(arms, lambda calls=calls: timed(calls), args.rounds)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
