"""The compiled classifier (setup.py, `make native`) against the same code interpreted.

`make test` builds it first and sets AUTOFIX_EXPECT_NATIVE=1, so a build that compiled nothing
fails here instead of testing pure Python twice. Without a build (`make test-fast` on a fresh
checkout) the comparison has nothing to compare and says so.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from autofix.native_modules import NATIVE_MODULES, compiled_modules

REPO = Path(__file__).resolve().parent.parent
EXPECTED = os.environ.get("AUTOFIX_EXPECT_NATIVE") == "1"

_REPORT = (
    "import json, sys; from autofix.native_modules import compiled_modules; "
    "print(json.dumps(compiled_modules()))"
)


def _run(pythonpath: Path, *args: str) -> str:
    done = subprocess.run(
        [sys.executable, *args],
        env={**os.environ, "PYTHONPATH": str(pythonpath)},
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=240,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


def test_make_test_runs_the_compiled_classifier() -> None:
    if not EXPECTED:
        pytest.skip("only under `make test`, which builds the compiled classifier first")
    assert compiled_modules() == list(NATIVE_MODULES)


def test_every_native_module_is_compiled_or_none_is() -> None:
    # A partial build (one module failed, an old .so left behind) mixes two builds' code.
    assert compiled_modules() in ([], list(NATIVE_MODULES))


def test_compiled_and_interpreted_judge_the_corpus_alike(tmp_path: Path) -> None:
    if not compiled_modules():
        pytest.skip("no compiled classifier in this checkout (`make native` builds it)")
    pure = tmp_path / "plugins"
    shutil.copytree(
        REPO / "plugins" / "autofix",
        pure / "autofix",
        ignore=shutil.ignore_patterns("*.so", "__pycache__"),
    )
    assert _run(pure, "-c", _REPORT).strip() == "[]"
    script = str(REPO / "tests" / "corpus" / "verdict_hash.py")
    compiled = _run(REPO / "plugins", script)
    interpreted = _run(pure, script)
    # Every corpus run's verdict and evidence, and the tool captures' (the same three hashes).
    assert "verdicts" in compiled
    assert compiled == interpreted
