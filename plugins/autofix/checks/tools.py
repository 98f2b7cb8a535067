"""Per-tool knowledge: where each check's executable is, the argv it runs with, and its parser.

``TOOLS`` is the table ``run`` consults; ``normalize_check`` accepts only its keys.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from autofix.checks.model import KNOWN_CHECKS, CheckIssue
from autofix.checks.parsers import (
    parse_eslint_json,
    parse_junit_xml,
    parse_mypy_json,
    parse_mypy_text,
    parse_ruff_json,
    parse_tsc_text,
)


def find_tool(name: str, project: Path) -> str | None:
    """Locate an executable: the project's own envs first, then this interpreter's bin, then PATH.

    The project's ``.venv`` / ``node_modules`` come first because they carry the project's
    own dependencies and pinned tool versions; the Airflow venv's bin is the fallback that
    makes ruff/mypy/pytest work for a bare checkout.
    """
    candidates = [
        project / "node_modules" / ".bin" / name,
        project / ".venv" / "bin" / name,
        project / "venv" / "bin" / name,
        Path(sys.executable).parent / name,  # not resolved: a venv's python is a symlink
    ]
    for candidate in candidates:
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return str(candidate)
    return shutil.which(name)


def lookup_places(project: Path) -> str:
    return (
        f"{project}/node_modules/.bin, {project}/.venv/bin, {project}/venv/bin, "
        f"{Path(sys.executable).parent} and PATH"
    )


@dataclass(frozen=True)
class Completed:
    """How one tool run ended: what ``run`` hands to the tool's parser."""

    exit_code: int | None
    stdout: str
    stderr: str
    timed_out: bool


@dataclass(frozen=True)
class Invocation:
    """How to run one tool in one project, and how to read what it printed."""

    argv: list[str]
    parse: Callable[[Completed], list[CheckIssue]]
    ok_exit_codes: frozenset[int] = frozenset({0})
    structured_stdout: bool = False  # stdout is a report; the tail should show stderr


def _ruff(exe: str, project: Path, scratch: Path) -> Invocation:
    return Invocation(
        [exe, "check", "--output-format", "json", "--no-fix", "."],
        lambda done: parse_ruff_json(done.stdout, project),
        structured_stdout=True,
    )


@cache
def _mypy_has_json(exe: str) -> bool:
    try:
        done = subprocess.run(
            [exe, "--help"], capture_output=True, text=True, timeout=60, check=False
        )
    except (OSError, subprocess.TimeoutExpired):
        return False
    return "--output" in done.stdout


def _mypy_declares_files(project: Path) -> bool:
    """True when the project's mypy config names what to check, so no target is passed."""
    pyproject = project / "pyproject.toml"
    if pyproject.is_file():
        try:
            data = tomllib.loads(pyproject.read_text(encoding="utf-8"))
        except (tomllib.TOMLDecodeError, OSError, UnicodeDecodeError):
            data = {}
        if data.get("tool", {}).get("mypy", {}).get("files"):
            return True
    for name in ("mypy.ini", ".mypy.ini", "setup.cfg"):
        path = project / name
        if path.is_file():
            text = path.read_text(encoding="utf-8", errors="replace")
            if re.search(r"^\[mypy\][^\[]*^files\s*=", text, re.MULTILINE):
                return True
    return False


def _mypy(exe: str, project: Path, scratch: Path) -> Invocation:
    argv = [exe, "--show-error-codes", "--no-error-summary", "--no-color-output", "--no-pretty"]
    if not _mypy_declares_files(project):
        argv += ["--exclude", r"(^|/)(\.venv|venv|node_modules|build|dist|\.git)/", "."]
    if _mypy_has_json(exe):
        return Invocation(
            [*argv[:1], "--output", "json", *argv[1:]],
            lambda done: parse_mypy_json(done.stdout, project),
            structured_stdout=True,
        )
    return Invocation(argv, lambda done: parse_mypy_text(done.stdout, project))


def _pytest(exe: str, project: Path, scratch: Path) -> Invocation:
    report = scratch / "junit.xml"

    def parse(done: Completed) -> list[CheckIssue]:
        if not report.is_file():
            return []
        issues = parse_junit_xml(report.read_text(encoding="utf-8", errors="replace"), project)
        if done.exit_code == 5:
            issues.append(
                CheckIssue(
                    tool="pytest", code="no-tests", message="no tests collected", severity="warning"
                )
            )
        return issues

    return Invocation(
        [
            exe,
            "-q",
            "-p",
            "no:cacheprovider",
            "--continue-on-collection-errors",
            "-o",
            "junit_family=xunit1",
            f"--junitxml={report}",
        ],
        parse,
        ok_exit_codes=frozenset({0, 5}),  # 5 = no tests collected: nothing to fix
    )


def _eslint(exe: str, project: Path, scratch: Path) -> Invocation:
    return Invocation(
        [exe, "-f", "json", "."],
        lambda done: parse_eslint_json(done.stdout, project),
        structured_stdout=True,
    )


def _tsc(exe: str, project: Path, scratch: Path) -> Invocation:
    return Invocation(
        [exe, "--noEmit", "--pretty", "false"],
        lambda done: parse_tsc_text(done.stdout, project),
    )


def _npm_test(exe: str, project: Path, scratch: Path) -> Invocation:
    return Invocation([exe, "test"], lambda done: [])


TOOLS: dict[str, tuple[str, Callable[[str, Path, Path], Invocation]]] = {
    "ruff": ("ruff", _ruff),
    "mypy": ("mypy", _mypy),
    "pytest": ("pytest", _pytest),
    "eslint": ("eslint", _eslint),
    "tsc": ("tsc", _tsc),
    "npm test": ("npm", _npm_test),
}


def normalize_check(name: str) -> str:
    """Canonical check name; accepts ``npm-test`` / ``npm_test`` for ``npm test``."""
    key = " ".join(name.strip().lower().replace("-", " ").replace("_", " ").split())
    if key not in TOOLS:
        raise ValueError(f"unknown check {name!r}; choose from: {', '.join(KNOWN_CHECKS)}")
    return key
