"""Which checks apply to a project when nobody said: detected from its files."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from autofix.checks.model import PYTHON_CHECKS

_NPM_PLACEHOLDER_TEST = 'echo "Error: no test specified" && exit 1'


def detect_checks(project: Path) -> list[str]:
    """The default checks for a project: Python's when it has Python, JS/TS's when configured."""
    project = Path(project)
    checks: list[str] = []
    python_markers = ("pyproject.toml", "setup.py", "setup.cfg")
    if any((project / marker).is_file() for marker in python_markers) or _has_python(project):
        checks += PYTHON_CHECKS
    package = _read_package_json(project)
    if package is not None:
        deps = {**package.get("dependencies", {}), **package.get("devDependencies", {})}
        if (
            "eslint" in deps
            or any(project.glob("eslint.config.*"))
            or any(project.glob(".eslintrc*"))
        ):
            checks.append("eslint")
    if (project / "tsconfig.json").is_file():
        checks.append("tsc")
    if package is not None:
        script = str(package.get("scripts", {}).get("test", "")).strip()
        if script and script != _NPM_PLACEHOLDER_TEST:
            checks.append("npm test")
    return checks


def _has_python(project: Path) -> bool:
    skip = {".git", ".venv", "venv", "node_modules"}
    if any(project.glob("*.py")):
        return True
    return any(
        child.is_dir() and child.name not in skip and any(child.glob("*.py"))
        for child in project.iterdir()
    )


def _read_package_json(project: Path) -> dict[str, Any] | None:
    path = project / "package.json"
    if not path.is_file():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (ValueError, OSError):
        return {}
    return data if isinstance(data, dict) else {}
