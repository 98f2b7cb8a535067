"""The attempt counter: which attempt of a scenario and operation this run is, shared across processes."""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

from autofix.sim.scenario import SCENARIOS_DIR

STATE_DIR_ENV = "AUTOFIX_SIM_STATE_DIR"
STATE_FILE = ".autofix-sim-state.json"


def default_state_dir(scenario_path: Path) -> Path:
    env = os.environ.get(STATE_DIR_ENV)
    if env:
        return Path(env)
    if os.access(scenario_path.parent, os.W_OK) and scenario_path.parent != SCENARIOS_DIR:
        return scenario_path.parent
    return Path(tempfile.gettempdir()) / "autofix-sim"


@contextlib.contextmanager
def _locked_state(state_dir: Path) -> Iterator[tuple[dict[str, int], Path]]:
    state_dir.mkdir(parents=True, exist_ok=True)
    path = state_dir / STATE_FILE
    with open(state_dir / (STATE_FILE + ".lock"), "a+") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # parallel tasks share one counter file
        try:
            state: dict[str, int] = json.loads(path.read_text()) if path.exists() else {}
        except ValueError:
            state = {}
        yield state, path


def next_attempt(scenario_path: Path, operation: str, state_dir: Path) -> int:
    key = f"{scenario_path}::{operation}"
    with _locked_state(state_dir) as (state, path):
        state[key] = int(state.get(key, 0)) + 1
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(state, indent=1, sort_keys=True))
        os.replace(tmp, path)
        return state[key]


def reset_attempts(scenario_path: Path, state_dir: Path, operation: str | None = None) -> None:
    prefix = f"{scenario_path}::"
    with _locked_state(state_dir) as (state, path):
        for key in [k for k in state if k.startswith(prefix)]:
            if operation is None or key == prefix + operation:
                del state[key]
        path.write_text(json.dumps(state, indent=1, sort_keys=True))
