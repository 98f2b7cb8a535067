"""What each rule adds to the engine's scan: the combined database without that rule, timed.

    taskset -c 1 .venv/bin/python benchmarks/rule_marginal.py [--mb 4] [--top 12]
        [--input quiet real noise-dense project]

classify_throughput.py's per-rule table times each rule's expressions alone, which ranks rules
but misses what a rule costs inside the one database the classifier scans (the engine shares
work across its expressions). Here, per rule: the scan of the whole database (built-ins plus
the 10 user rules, flags and prefilters included, no callback) minus the scan of the same
database without that rule, each the best of 5 runs interleaved with the other's (this
machine has slow spells minutes long), on classify_throughput.py's inputs cut in
1 MB pieces of whole lines. Differences under about 0.3 ms are this machine's noise. Nothing here is a
pass/fail test.
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

from classify_throughput import INPUTS, bench_rules, whole_line_pieces

from autofix.patterns import engine


def database(plans: list[Any], skip: int) -> Any:
    """The classifier's main database (flags, expressions, prefilters) without rule ``skip``."""
    return engine.Engine([plan for position, plan in enumerate(plans) if position != skip]).db


def scan_ms(db: Any, pieces: list[bytes]) -> float:
    began = time.process_time()
    for piece in pieces:
        db.scan(piece)
    return (time.process_time() - began) * 1e3


def paired_ms(
    whole: Any, without: Any, pieces: list[bytes], repeats: int = 5
) -> tuple[float, float]:
    """Best of ``repeats`` each, the two databases interleaved: a slow spell hits both."""
    times = [(scan_ms(whole, pieces), scan_ms(without, pieces)) for _ in range(repeats)]
    return min(w for w, _ in times), min(o for _, o in times)


def main() -> int:
    args = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    args.add_argument("--mb", type=float, default=4.0)
    args.add_argument("--top", type=int, default=12)
    args.add_argument("--input", nargs="+", default=["quiet", "real", "noise-dense", "project"])
    opts = args.parse_args()
    rules = bench_rules().ruleset("", "stderr").rules
    plans = [rule.plan for rule in rules]
    inputs = {name: whole_line_pieces(INPUTS[name](opts.mb)) for name in opts.input}
    whole = database(plans, -1)
    base: dict[str, list[float]] = {name: [] for name in inputs}
    saved: dict[str, list[tuple[float, str]]] = {name: [] for name in inputs}
    for position, rule in enumerate(rules):
        without = database(plans, position)
        for name, pieces in inputs.items():
            whole_ms, without_ms = paired_ms(whole, without, pieces)
            base[name].append(whole_ms)
            saved[name].append((whole_ms - without_ms, rule.id))
    for name in inputs:
        whole_ms = statistics.median(base[name])
        print(f"{name} ({opts.mb:g} MB): whole database {whole_ms:.1f} ms; without each rule:")
        for ms, rule_id in sorted(saved[name], reverse=True)[: opts.top]:
            print(f"  {rule_id:32s} {ms:6.2f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
