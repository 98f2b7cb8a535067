"""benchmarks/audit_store.py runs end to end in its smoke mode and prints its tables.

Timings are never pass/fail here: the figures live in docs/benchmarks.md.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "benchmarks" / "audit_store.py"


def run_benchmark(*args: str) -> str:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "plugins")}
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--quick", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


def test_quick_run_prints_every_measure_with_the_jsonl_baseline() -> None:
    out = run_benchmark("--stores", "jsonl,sqlite")
    assert "## 2,000 attempts" in out
    for measure in ("budget check", "recent(20)", "by_trace (a run)", "append"):
        assert f"| {measure} (<" in out
    assert "| jsonl |" in out
    assert "baseline" in out
    assert "| sqlite |" in out
    assert "x |" in out  # a ratio against JSONL


def test_unknown_store_is_a_clear_error() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "plugins")}
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--quick", "--stores", "mongo"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode != 0
    assert "unknown store(s) ['mongo']: choose from jsonl, sqlite, postgresql" in done.stderr
