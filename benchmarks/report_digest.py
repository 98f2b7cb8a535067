"""The classifier's whole report on each benchmark input, as one sha256 per input and feed size.

    PYTHONPATH=plugins:benchmarks:tests .venv/bin/python benchmarks/report_digest.py [--mb 5]

A speed change to the classifier must leave these unchanged (issue 26): counts, kept blocks,
summaries, rule hits (in any order), warnings and tail, fed in 1 MB pieces and in odd 4,099-byte pieces that
split lines and UTF-8 sequences, with the benchmark's rules (built-ins plus 10 user rules).
The corpus side of the same check is tests/corpus/verdict_hash.py.

To compare with an earlier commit, run the script in a checkout of that commit (a worktree):
the benchmark modules put their own checkout's ``plugins/`` first on ``sys.path``, whatever
PYTHONPATH says, so a path to other sources is silently not used.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys

from classify_throughput import INPUTS, bench_rules

from autofix.classify.classifier import Classifier
from autofix.patterns import engine

FEEDS = (1 << 20, 4099)


def digest(data: bytes, feed: int, use_engine: bool) -> str:
    classifier = Classifier(bench_rules(), engine=use_engine)
    for offset in range(0, len(data), feed):
        classifier.feed(data[offset : offset + feed])
    report = json.dumps(classifier.finish().model_dump(mode="json"), sort_keys=True)
    return hashlib.sha256(report.encode()).hexdigest()[:16]


def main() -> int:
    args = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    args.add_argument("--mb", type=float, default=5.0)
    args.add_argument("--input", choices=(*INPUTS, "all"), default="all")
    opts = args.parse_args()
    names = list(INPUTS) if opts.input == "all" else [opts.input]
    print(f"engine: {'hyperscan' if engine.available() else 'fallback'}; {opts.mb:g} MB per input")
    for name in names:
        data = INPUTS[name](opts.mb)
        sums = [digest(data, feed, engine.available()) for feed in FEEDS]
        print(f"{name:12} " + "  ".join(f"{feed}:{s}" for feed, s in zip(FEEDS, sums, strict=True)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
