"""A change of the built-in rules, timed against the rules of an earlier commit, paired.

    PYTHONPATH=plugins:benchmarks .venv/bin/python benchmarks/rules_ab.py --base REV
        [--mb 20] [--rounds 7] [--input project real v2 quiet] [--cpu N]

Both rule sets (the working tree's ``patterns/builtin_rules.yaml`` and ``REV``'s) get the same 10
user rules as classify_throughput.py and run the same classifier code, in one process, on the
same bytes (classify_throughput.py's inputs). Rounds alternate which set runs first; each round
times one classify of the whole input per set (CPU). Printed per input: each set's median
MB/s, the per-round ratio new/base (median and range), and the seed loop's MB/s measured in the
same rounds, so each set's ratio against the seed can be read off. Nothing here is a pass/fail
test.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
from pathlib import Path

from classify_throughput import INPUTS, run_autofix, timed
from engine_prototype import USER_RULES, run_seed

from autofix.patterns import engine
from autofix.patterns.compiled import CompiledRules, compile_rules
from autofix.patterns.loader import DEFAULT_RULES, validate_text
from autofix.patterns.model import PatternSettings

ROOT = Path(__file__).resolve().parent.parent
RULES_PATH = "plugins/autofix/patterns/builtin_rules.yaml"


def rules_at(rev: str) -> CompiledRules:
    text = subprocess.run(
        ["git", "show", f"{rev}:{RULES_PATH}"], cwd=ROOT, check=True, capture_output=True, text=True
    ).stdout
    parsed, problems = validate_text(text, f"{rev}:{RULES_PATH}", trusted=True)
    if parsed is None:
        raise SystemExit(f"{rev}: the built-in rules do not load: {problems}")
    return compile_rules(list(USER_RULES), PatternSettings(), rev, tuple(parsed.rules))


def main() -> int:
    args = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    args.add_argument("--base", required=True, help="the commit whose rules are the baseline")
    args.add_argument("--mb", type=float, default=20.0)
    args.add_argument("--rounds", type=int, default=7)
    args.add_argument("--input", nargs="*", choices=INPUTS, default=list(INPUTS))
    args.add_argument("--cpu", type=int, default=None, help="pin to this CPU")
    opts = args.parse_args()
    if opts.cpu is not None:
        os.sched_setaffinity(0, {opts.cpu})
    base = rules_at(opts.base)
    new = compile_rules(list(USER_RULES), PatternSettings(), "working tree", DEFAULT_RULES)
    use_engine = engine.available()
    for rules in (base, new):  # compiled outside the timing
        rules.ruleset("", "stderr").engine()
    print(
        f"base {opts.base}: {len(base.compiled) - len(USER_RULES)} built-in rules; working tree: "
        f"{len(DEFAULT_RULES)}; +{len(USER_RULES)} user rules each; engine: {use_engine}; "
        f"{opts.rounds} rounds, CPU time"
    )
    for name in opts.input:
        data = INPUTS[name](opts.mb)
        mb = len(data) / 1e6
        times: dict[str, list[float]] = {"base": [], "new": [], "seed": []}
        for round_no in range(opts.rounds):
            order = [("base", base), ("new", new)]
            for label, rules in order if round_no % 2 == 0 else order[::-1]:
                times[label].append(timed(lambda r=rules, d=data: run_autofix(d, r, use_engine))[1])
            times["seed"].append(timed(lambda d=data: run_seed(d))[1])
        ratios = [b / n for b, n in zip(times["base"], times["new"], strict=True)]
        speed = {k: mb / statistics.median(v) for k, v in times.items()}
        print(
            f"{name:8s} {mb:5.1f} MB  base {speed['base']:7.1f} MB/s ({speed['base'] / speed['seed']:.2f}x seed)"
            f"  new {speed['new']:7.1f} MB/s ({speed['new'] / speed['seed']:.2f}x seed)"
            f"  new/base speed {statistics.median(ratios):.3f} (range {min(ratios):.3f}-{max(ratios):.3f})"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
