"""The classifier of two checkouts against the seed's loop, alternated, each in its own process.

    git worktree add /tmp/base REV
    .venv/bin/python benchmarks/checkout_ab.py --base /tmp/base [--mb 5] [--rounds 4] [--cpu 1]
        [--input project real v2 quiet noise-dense]

A code change to the classifier cannot be timed against the old code in one process (both
import ``autofix``), so each round runs one process per checkout, in alternating order, pinned
to one CPU. Each process builds classify_throughput.py's inputs from its own checkout, then per
input runs the seed's loop and a classify of the whole input (1 MB feeds, CPU time) three times
and keeps the median of the three per-run ratios seed / classify. Printed per input: each
checkout's median ratio over the rounds and its range. ``--latency N`` times instead the 16 KB
``ResponseParser.parse`` (classify_throughput.latency: N slices at random offsets, CPU p99).
Nothing here is a pass/fail test.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
INPUT_NAMES = ["project", "real", "v2", "quiet", "noise-dense"]

CHILD = r"""
import json, statistics, sys, time
sys.path[:0] = ["plugins", "benchmarks", "tests"]
from classify_throughput import INPUTS, bench_rules, run_autofix
from engine_prototype import run_seed
rules = bench_rules()
rules.ruleset("", "stderr").engine()
ratios = {}
for name in sys.argv[1].split(","):
    data = INPUTS[name](float(sys.argv[2]))
    run_autofix(data, rules, True)
    runs = []
    for _ in range(3):
        began = time.process_time(); run_seed(data); seed = time.process_time() - began
        began = time.process_time(); run_autofix(data, rules, True)
        runs.append(seed / (time.process_time() - began))
    ratios[name] = statistics.median(runs)
print(json.dumps(ratios))
"""

LATENCY_CHILD = r"""
import json, sys
sys.path[:0] = ["plugins", "benchmarks", "tests"]
from classify_throughput import INPUTS, latency
found = {}
for name in sys.argv[1].split(","):
    stats = latency(INPUTS[name](float(sys.argv[2])), int(sys.argv[3]))
    found[name] = stats["cpu_p99"]
print(json.dumps(found))
"""


def run_child(
    checkout: Path, inputs: list[str], megabytes: float, cpu: int, samples: int = 0
) -> dict[str, float]:
    """One process in ``checkout``: ratios to the seed, or (``samples``) 16 KB parse p99s."""
    command = [sys.executable, "-c", LATENCY_CHILD if samples else CHILD]
    command += [",".join(inputs), str(megabytes), *([str(samples)] if samples else [])]
    if cpu >= 0:
        command = ["taskset", "-c", str(cpu), *command]
    done = subprocess.run(command, cwd=checkout, capture_output=True, text=True, check=False)
    if done.returncode:
        raise SystemExit(f"{checkout}: {done.stderr.strip()}")
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def main() -> int:
    args = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    args.add_argument("--base", type=Path, required=True, help="the other checkout (a worktree)")
    args.add_argument("--mb", type=float, default=5.0)
    args.add_argument("--rounds", type=int, default=4)
    args.add_argument("--cpu", type=int, default=1, help="-1: no pinning")
    args.add_argument("--input", nargs="+", choices=INPUT_NAMES, default=INPUT_NAMES)
    args.add_argument(
        "--latency",
        type=int,
        default=0,
        metavar="N",
        help="instead: the 16 KB ResponseParser.parse p99 (CPU ms) over N slices",
    )
    opts = args.parse_args()
    sides = {"base": opts.base.resolve(), "this": HERE}
    found: dict[str, list[dict[str, float]]] = {"base": [], "this": []}
    for round_no in range(opts.rounds):
        order = ["base", "this"] if round_no % 2 == 0 else ["this", "base"]
        for side in order:
            found[side].append(run_child(sides[side], opts.input, opts.mb, opts.cpu, opts.latency))
    print(f"base {sides['base']}, this {sides['this']}: {opts.rounds} rounds, {opts.mb:g} MB")
    unit = " ms p99" if opts.latency else "x seed"
    for name in opts.input:
        cells = []
        for side in ("base", "this"):
            values = [ratios[name] for ratios in found[side]]
            cells.append(
                f"{side} {statistics.median(values):.2f}{unit} "
                f"({min(values):.2f}-{max(values):.2f})"
            )
        print(f"{name:12s} " + "   ".join(cells))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
