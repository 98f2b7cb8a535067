"""Shared test fixtures."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parent.parent
SHARED_DIR = Path(os.environ.get("AUTOFIX_SHARED_DIR", REPO_ROOT.parent / "shared"))
AGENT_FORMATS_DIR = SHARED_DIR / "agent-formats"

os.environ.setdefault("AIRFLOW__CORE__ALLOWED_DESERIALIZATION_CLASSES", "airflow.* autofix.*")


@pytest.fixture
def agent_formats_dir() -> Path:
    if not AGENT_FORMATS_DIR.is_dir():
        pytest.fail(f"agent transcripts not found at {AGENT_FORMATS_DIR}; set AUTOFIX_SHARED_DIR")
    return AGENT_FORMATS_DIR
