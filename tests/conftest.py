"""Shared test fixtures.

Airflow reads its configuration at import, so the SQLite Airflow home is set here, before any
test module imports airflow.
"""

from __future__ import annotations

import fcntl
import os
import tempfile
from collections.abc import Generator, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

REPO_ROOT = Path(__file__).resolve().parent.parent
# The suite's own fixtures: real agent captures and the few hand-written transcripts kept.
CAPTURES_DIR = REPO_ROOT / "tests" / "fixtures" / "agent_captures"
TRANSCRIPTS_DIR = REPO_ROOT / "tests" / "fixtures" / "transcripts"

# Under xdist a worker inherits the controller's environment: what this file set there is
# replaced below, so each worker has its own Airflow home, SQLite DB and state dir.
_INHERITED_HOME = os.environ.get("AIRFLOW_HOME")
_AIRFLOW_HOME = Path(tempfile.mkdtemp(prefix="autofix-airflow-"))
os.environ["AIRFLOW_HOME"] = str(_AIRFLOW_HOME)
os.environ["AIRFLOW__CORE__DAGS_FOLDER"] = str(_AIRFLOW_HOME / "dags")
os.environ["AIRFLOW__CORE__LOAD_EXAMPLES"] = "False"
os.environ["AIRFLOW__CORE__ALLOWED_DESERIALIZATION_CLASSES"] = "airflow.* autofix.*"
os.environ["AIRFLOW__CORE__UNIT_TEST_MODE"] = "False"
os.environ.setdefault("AIRFLOW__LOGGING__LOGGING_LEVEL", "INFO")
(_AIRFLOW_HOME / "dags").mkdir(parents=True, exist_ok=True)
# Last good pattern copies from one test must not leak into the repo or another test run.
state_dir = os.environ.get("AUTOFIX_STATE_DIR")
if state_dir is None or (
    _INHERITED_HOME is not None and state_dir == str(Path(_INHERITED_HOME) / "autofix-state")
):
    os.environ["AUTOFIX_STATE_DIR"] = str(_AIRFLOW_HOME / "autofix-state")
# One folder per run, shared by the xdist workers (they inherit it): the machine lock's files.
_RUN_DIR = Path(
    os.environ.setdefault("AUTOFIX_TEST_RUN_DIR", tempfile.mkdtemp(prefix="autofix-run-"))
)
_XDIST = "PYTEST_XDIST_WORKER" in os.environ

# Under xdist (pyproject's addopts: --dist loadfile) the files are handed out in this order,
# then the rest in collection order: the longest ones first, so no worker is left with one at
# the end. The exclusive matrix comes first and the second file has only short tests, so the
# matrix waits for one short test, not for a long module fixture (see _machine_lock).
_FIRST_FILES = (
    "test_e2e_real_clis.py",  # exclusive: ~4 min of agent CLIs on every core
    "test_agent_captures.py",
    "test_ui_browser.py",
    "test_autonomous_fixing.py",
    "test_fuzz_parsers.py",
    "test_scheduler_live.py",
    "test_local_llm.py",
    "test_sample_project.py",
    "test_checks.py",
)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if not _XDIST:
        return
    rank = {name: index for index, name in enumerate(_FIRST_FILES)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))  # stable: file order kept


@contextmanager
def _machine_lock(exclusive: bool) -> Iterator[None]:
    """Shared for an ordinary test, exclusive for an ``exclusive`` one (file locks, so across
    the xdist workers). The gate stops new tests from starting while an exclusive one waits for
    the running ones to end; closing the files releases the locks."""
    with (_RUN_DIR / "gate.lock").open("a") as gate, (_RUN_DIR / "machine.lock").open("a") as lock:
        if exclusive:
            fcntl.flock(gate, fcntl.LOCK_EX)
            fcntl.flock(lock, fcntl.LOCK_EX)
        else:
            fcntl.flock(gate, fcntl.LOCK_SH)
            fcntl.flock(lock, fcntl.LOCK_SH)
            fcntl.flock(gate, fcntl.LOCK_UN)
        yield


# tryfirst: outside pytest-timeout's wrapper, so waiting for the lock is not test time.
@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Generator[Any]:
    if not _XDIST:
        return (yield)
    with _machine_lock(item.get_closest_marker("exclusive") is not None):
        return (yield)


@pytest.fixture
def transcripts_dir() -> Path:
    return TRANSCRIPTS_DIR
