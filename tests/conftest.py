"""Shared test fixtures.

Airflow reads its configuration at import, so the SQLite Airflow home is set here, before any
test module imports airflow.
"""

from __future__ import annotations

import os
import re
import tempfile
from pathlib import Path

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
_XDIST = "PYTEST_XDIST_WORKER" in os.environ
# `make test-fast` (the inner loop): property tests run a twentieth of their examples.
FAST = os.environ.get("AUTOFIX_FAST_TESTS") == "1"


def examples(count: int) -> int:
    """A property test's example count: all of them under `make test`, a twentieth in test-fast."""
    return max(25, count // 20) if FAST else count


# Under xdist (pyproject's addopts: --dist loadfile) the files are handed out in this order,
# then the rest in collection order: the longest ones first, so no worker is left with one at
# the end.
_FIRST_FILES = (
    "test_provider_install.py",  # e2e: a fresh virtualenv with Airflow, 4-10 minutes
    "test_ui_browser.py",  # e2e: Airflow in two teams, the demo run, Chromium: about 5 minutes
    "test_agent_captures.py",
    "test_autonomous_fixing.py",
    "test_fuzz_parsers.py",
    "test_classify.py",
    "test_secret_probe.py",
    "test_scheduler_live.py",
    "test_local_llm.py",
    "test_sample_project.py",
    "test_checks.py",
)
_LAYERS = ("airflow", "e2e")


# A test file whose module-level pytestmark names another layer: `-m unit` need not import it
# (an Airflow-layer module imports Airflow, seconds per worker).
_OTHER_LAYER_FILE = re.compile(
    r"^pytestmark = .*\bpytest\.mark\.(?:airflow|e2e)\b|^    pytest\.mark\.(?:airflow|e2e),", re.M
)


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    if config.getoption("markexpr") != "unit" or not collection_path.name.startswith("test_"):
        return None
    return bool(_OTHER_LAYER_FILE.search(collection_path.read_text())) or None


def pytest_configure(config: pytest.Config) -> None:
    # A compiled classifier module (make native) older than any source of the package runs old
    # code under new sources' names: every result would test the wrong thing.
    built = sorted((REPO_ROOT / "plugins").rglob("*.so"))
    if built:
        oldest = min(path.stat().st_mtime for path in built)
        newer = [
            path
            for path in (REPO_ROOT / "plugins" / "autofix").rglob("*.py")
            if path.stat().st_mtime > oldest
        ]
        if newer:
            pytest.exit(
                f"the compiled classifier is older than {newer[0].relative_to(REPO_ROOT)}: run "
                "`make native` to rebuild it, or `make clean-native` to test pure Python",
                returncode=2,
            )


@pytest.hookimpl(tryfirst=True)  # before -m selects by these markers
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    # The three layers (pyproject's markers): a test neither airflow nor e2e is a unit test.
    for item in items:
        if not any(item.get_closest_marker(layer) for layer in _LAYERS):
            item.add_marker(pytest.mark.unit)
    if _XDIST:
        rank = {name: index for index, name in enumerate(_FIRST_FILES)}
        items.sort(key=lambda item: rank.get(item.path.name, len(rank)))  # stable


@pytest.fixture
def transcripts_dir() -> Path:
    return TRANSCRIPTS_DIR
