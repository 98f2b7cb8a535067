"""What the plan task's preflight costs per project, against the CLI's own start.

Run: ``PYTHONPATH=plugins .venv/bin/python benchmarks/preflight.py [--repeat 5]`` after
``make agent-clis``. For each pinned CLI, in the same process and an empty HOME with the CLI's
key variable set: the baseline is ``<cli> --version`` alone (the cheapest thing the CLI does),
the measured run is ``autofix.fixing.preflight.preflight`` (project check, the CLI found and its
version, credentials: ``claude auth status``, ``codex`` from its key variable, Gemini CLI from
its environment). Medians of ``--repeat`` runs; the ratio is preflight / baseline.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from autofix.fixing.preflight import CliFound, preflight

ROOT = Path(__file__).resolve().parent.parent
AGENTS = ROOT / ".agents"
KEYS = {"claude": "ANTHROPIC_API_KEY", "codex": "CODEX_API_KEY", "gemini": "GEMINI_API_KEY"}


def median_seconds(repeat: int, action: object) -> float:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        action()  # type: ignore[operator]
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as home:
        print(f"{'agent':8} {'--version s':>12} {'preflight s':>12} {'ratio':>6}  version")
        for agent, key in KEYS.items():
            cli = AGENTS / "node_modules" / ".bin" / agent
            if not cli.exists():
                print(f"{agent:8} not installed: run `make agent-clis`")
                continue
            env = {"PATH": os.environ["PATH"], "HOME": home, key: "k-bench"}
            baseline = median_seconds(
                args.repeat,
                lambda cli=cli, env=env: subprocess.run(
                    [str(cli), "--version"], env=env, capture_output=True, check=True
                ),
            )
            found: list[object] = []
            measured = median_seconds(
                args.repeat,
                lambda agent=agent, env=env, found=found: found.append(
                    preflight(Path(home), agent, str(AGENTS), empty_hint="-", env=env)
                ),
            )
            result = found[-1]
            version = result.version if isinstance(result, CliFound) else f"PROBLEM: {result}"
            print(
                f"{agent:8} {baseline:12.2f} {measured:12.2f} {measured / baseline:6.2f}  {version}"
            )


if __name__ == "__main__":
    main()
