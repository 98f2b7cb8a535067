"""Shared test fixtures.

Airflow reads its configuration at import, so the SQLite Airflow home is set here, before any
test module imports airflow.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parent.parent
# The suite's own fixtures: real agent captures and the few hand-written transcripts kept.
CAPTURES_DIR = REPO_ROOT / "tests" / "fixtures" / "agent_captures"
TRANSCRIPTS_DIR = REPO_ROOT / "tests" / "fixtures" / "transcripts"

_AIRFLOW_HOME = Path(tempfile.mkdtemp(prefix="autofix-airflow-"))
os.environ["AIRFLOW_HOME"] = str(_AIRFLOW_HOME)
os.environ["AIRFLOW__CORE__DAGS_FOLDER"] = str(_AIRFLOW_HOME / "dags")
os.environ["AIRFLOW__CORE__LOAD_EXAMPLES"] = "False"
os.environ["AIRFLOW__CORE__ALLOWED_DESERIALIZATION_CLASSES"] = "airflow.* autofix.*"
os.environ["AIRFLOW__CORE__UNIT_TEST_MODE"] = "False"
os.environ.setdefault("AIRFLOW__LOGGING__LOGGING_LEVEL", "INFO")
(_AIRFLOW_HOME / "dags").mkdir(parents=True, exist_ok=True)
# Last good pattern copies from one test must not leak into the repo or another test run.
os.environ.setdefault("AUTOFIX_STATE_DIR", str(_AIRFLOW_HOME / "autofix-state"))


@pytest.fixture
def transcripts_dir() -> Path:
    return TRANSCRIPTS_DIR
