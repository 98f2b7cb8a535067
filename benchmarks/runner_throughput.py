"""Runner throughput: lines per second streamed through ``autofix.runner`` to a callback.

Run: ``.venv/bin/python benchmarks/runner_throughput.py [--lines 1000000] [--repeat 3] [--json]``.

A child Python process writes N lines of a given width as fast as it can. Measured, in this
one process and one run:

- ``runner + callback``: ``Runner(..., on_stdout=cb).run()``, the callback counts lines
  (what the operator does before logging them);
- ``runner + parser``: the callback is a Claude EventParser fed stream-json lines, i.e.
  the real per-line work of an agent run;
- ``baseline``: ``subprocess.run(capture_output=True)`` then ``splitlines()``: no streaming,
  the whole output held in memory, no per-line callback.

Also reported: peak RSS growth of this process during each case (``ru_maxrss``).
Best of ``--repeat`` runs; wall time includes starting the child.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any

from autofix.agents.registry import get_format
from autofix.runner import Runner

CHILD_PLAIN = (
    "import sys\n"
    "n, width = int(sys.argv[1]), int(sys.argv[2])\n"
    "line = ('x' * (width - 1)) + '\\n'\n"
    "block = line * 10000\n"
    "for _ in range(n // 10000): sys.stdout.write(block)\n"
    "sys.stdout.write(line * (n % 10000))\n"
)

CHILD_CLAUDE = (
    "import json, sys\n"
    "n = int(sys.argv[1])\n"
    "line = json.dumps({'type': 'assistant', 'message': {'content': [{'type': 'text', 'text': 'working on it'}]},"
    " 'session_id': 's-1'}) + '\\n'\n"
    "result = json.dumps({'type': 'result', 'subtype': 'success', 'is_error': False, 'result': 'done',"
    " 'session_id': 's-1', 'num_turns': 1}) + '\\n'\n"
    "block = line * 1000\n"
    "for _ in range((n - 1) // 1000): sys.stdout.write(block)\n"
    "sys.stdout.write(line * ((n - 1) % 1000) + result)\n"
)


def _rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _measure(fn: Callable[[], int], repeat: int) -> dict[str, Any]:
    best = float("inf")
    count = 0
    rss_before = _rss_mb()
    for _ in range(repeat):
        start = time.perf_counter()
        count = fn()
        best = min(best, time.perf_counter() - start)
    return {
        "lines": count,
        "seconds": round(best, 3),
        "lines_per_s": round(count / best),
        "peak_rss_growth_mb": round(_rss_mb() - rss_before, 1),
    }


def bench(lines: int, width: int, repeat: int) -> dict[str, Any]:
    plain = [sys.executable, "-c", CHILD_PLAIN, str(lines), str(width)]
    claude = [sys.executable, "-c", CHILD_CLAUDE, str(lines)]

    def runner_callback() -> int:
        seen = [0]

        def cb(_: str) -> None:
            seen[0] += 1

        Runner(plain, on_stdout=cb).run()
        return seen[0]

    def runner_parser() -> int:
        parser = get_format("claude").parser()
        result = Runner(claude, on_stdout=parser.feed).run()
        outcome = parser.finish(result.exit_code, result.stderr_tail)
        assert outcome.run_status == "completed", outcome
        return outcome.events

    def baseline() -> int:
        done = subprocess.run(plain, capture_output=True, check=True)
        return len(done.stdout.decode("utf-8", "replace").splitlines())

    # Baseline last: its whole-output buffer would hide the runner's RSS growth otherwise.
    return {
        "lines": lines,
        "width": width,
        "runner_callback": _measure(runner_callback, repeat),
        "runner_claude_parser": _measure(runner_parser, repeat),
        "baseline_subprocess_run": _measure(baseline, repeat),
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--lines", type=int, default=1_000_000)
    ap.add_argument("--width", type=int, default=80, help="bytes per line incl. newline")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    report = bench(args.lines, args.width, args.repeat)
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    print(f"{args.lines:,} lines of {args.width} bytes, best of {args.repeat}")
    print(f"{'case':<28}{'seconds':>10}{'lines/s':>14}{'RSS growth MB':>16}")
    for key in ("runner_callback", "runner_claude_parser", "baseline_subprocess_run"):
        row = report[key]
        print(
            f"{key:<28}{row['seconds']:>10.3f}{row['lines_per_s']:>14,}{row['peak_rss_growth_mb']:>16.1f}"
        )
    ratio = (
        report["runner_callback"]["lines_per_s"] / report["baseline_subprocess_run"]["lines_per_s"]
    )
    print(f"runner+callback / baseline throughput: {ratio:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
