"""Recapture the tool captures (the batch ``tool_captures``) by running real tools in a scratch
directory.

    .venv/bin/python tests/corpus/capture_tools.py [NAME ...]

Each scenario is a bash script, a record in ``tests/corpus/cases/tool_captures.yaml``
(``@VENV_BIN@`` stands for the project's ``.venv/bin``); its stdout, stderr and exit code go
into ``tests/corpus/runs/tool_captures.jsonl.gz``. ``failure`` is the human verdict on the
output alone, i.e. what a classifier should say even if the exit code were 0 (the
``cmd || true`` case). Tools that are missing are skipped. Paths and pids vary per machine;
the verdicts must not.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))  # tests/, where the corpus package lives

from corpus.reader import (  # noqa: E402
    TOOL_CAPTURES,
    StoredRun,
    ToolCapture,
    load_tool_captures,
    read_runs,
    write_runs,
)

VENV_BIN = HERE.parents[1] / ".venv" / "bin"


def _available(needs: str) -> bool:
    return not needs or shutil.which(needs) is not None


def capture(scenario: ToolCapture) -> StoredRun | None:
    name, script = scenario.id, scenario.rendered(VENV_BIN)
    if not _available(scenario.needs):
        print(f"skip {name}: {scenario.needs} not found")
        return None
    with tempfile.TemporaryDirectory(prefix="autofix-capture-") as tmp:
        env = {**os.environ, "LC_ALL": "C.UTF-8", "CARGO_TERM_COLOR": "never", "NO_COLOR": ""}
        env.pop("NO_COLOR")
        proc = subprocess.run(
            ["bash", "-c", script], cwd=tmp, capture_output=True, env=env, timeout=300
        )
    meta = {
        "exit_code": proc.returncode,
        "failure": scenario.failure,
        "tool": scenario.tool,
        "script": script,
    }
    print(
        f"{name}: exit {proc.returncode}, {len(proc.stderr)} B stderr, {len(proc.stdout)} B stdout"
    )
    return StoredRun(
        TOOL_CAPTURES,
        name,
        meta,
        proc.stdout.replace(tmp.encode(), b"/tmp/work"),
        proc.stderr.replace(tmp.encode(), b"/tmp/work"),
    )


def main(names: list[str]) -> int:
    scenarios = {s.id: s for s in load_tool_captures()}
    unknown = sorted(set(names) - set(scenarios))
    if unknown:
        print(f"unknown scenarios {unknown}: see tests/corpus/cases/{TOOL_CAPTURES}.yaml")
        return 2
    runs = {run.id: run for run in read_runs(TOOL_CAPTURES)}
    for name in names or list(scenarios):
        run = capture(scenarios[name])
        if run is not None:
            runs[name] = run
    write_runs(TOOL_CAPTURES, runs.values())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
