"""What pricing a call costs: the price table's first load, then each priced call.

Run: ``PYTHONPATH=plugins .venv/bin/python benchmarks/pricing.py [--repeat 5]``. Each repeat
is a fresh interpreter (the table loads once per process, on the first priced call): the first
``Pricer.price`` of a known model (import of genai-prices included), then the mean of 1000 more,
then the mean of 100 for a model no table knows. Medians over the repeats.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

ONE_PROCESS = """
import json, time
from autofix.pricing import PricedCall, Pricer
from autofix.result import TokenUsage
usage = TokenUsage(input_tokens=1500, cached_input_tokens=500, output_tokens=60)
pricer = Pricer()
known, unknown = PricedCall("codex", "gpt-5.5"), PricedCall("gemini", "autofix-unpriced")
started = time.perf_counter(); pricer.price(usage, known); first = time.perf_counter() - started
started = time.perf_counter()
for _ in range(1000):
    pricer.price(usage, known)
each = (time.perf_counter() - started) / 1000
started = time.perf_counter()
for _ in range(100):
    pricer.price(usage, unknown)
missing = (time.perf_counter() - started) / 100
print(json.dumps({"first_ms": first * 1e3, "each_us": each * 1e6, "unknown_us": missing * 1e6}))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    env = {**os.environ, "PYTHONPATH": str(ROOT / "plugins")}
    runs = [
        json.loads(
            subprocess.run(
                [sys.executable, "-c", ONE_PROCESS],
                env=env,
                capture_output=True,
                text=True,
                check=True,
            ).stdout
        )
        for _ in range(args.repeat)
    ]
    for key, unit in (("first_ms", "ms"), ("each_us", "µs"), ("unknown_us", "µs")):
        print(f"{key:<11} {statistics.median(run[key] for run in runs):8.1f} {unit}")


if __name__ == "__main__":
    main()
