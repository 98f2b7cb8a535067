"""discover_tests' answer (``TestConfig``), its per-project cache, and the checks a run uses."""

from __future__ import annotations

import hashlib
import json
import os
import time
from pathlib import Path
from typing import ClassVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from autofix.checks.detect import detect_checks
from autofix.checks.model import KNOWN_CHECKS
from autofix.checks.tools import normalize_check
from autofix.config import AutofixConfig, resolve
from autofix.errors import FixingError
from autofix.fixing.plan import HOOKS_FILE, ProjectPlan, slug

# Files whose change means the test setup may have changed: a cached answer is then stale.
TEST_SETUP_FILES: tuple[str, ...] = (
    "pyproject.toml",
    "setup.cfg",
    "setup.py",
    "tox.ini",
    "pytest.ini",
    "noxfile.py",
    "package.json",
    "tsconfig.json",
    HOOKS_FILE,
)


class TestConfig(BaseModel):
    """How a project's tests and checks run, as the agent found out (the structured answer)."""

    __test__: ClassVar[bool] = False  # not a pytest test class

    model_config = ConfigDict(extra="ignore")

    framework: str = Field(min_length=1, description="test framework, e.g. pytest, jest, vitest")
    test_command: str = Field(min_length=1, description="shell command that runs the tests")
    test_paths: list[str] = Field(default_factory=list, description="test directories or files")
    checks: list[str] = Field(
        min_length=1, description=f"check tools that apply, from: {', '.join(KNOWN_CHECKS)}"
    )

    @field_validator("checks")
    @classmethod
    def _known(cls, value: list[str]) -> list[str]:
        return [normalize_check(check) for check in value]


class CacheLookup(BaseModel):
    config: TestConfig | None
    reason: str  # hit / miss / stale / changed, for the task log


class TestConfigCache:
    """discover_tests answers per project, reused while younger than ``max_age_s``.

    Keyed by the project's real path; an entry also records a fingerprint of the test setup
    files (TEST_SETUP_FILES), and a changed fingerprint makes it stale at once.
    """

    __test__: ClassVar[bool] = False

    def __init__(self, directory: str | Path, max_age_s: float) -> None:
        self.directory = Path(directory)
        self.max_age_s = max_age_s

    def path_for(self, project: str | Path) -> Path:
        key = hashlib.sha256(str(Path(project).resolve()).encode()).hexdigest()[:16]
        return self.directory / f"test_config-{slug(Path(project).name, 30)}-{key}.json"

    @staticmethod
    def fingerprint(project: str | Path) -> str:
        digest = hashlib.sha256()
        for name in TEST_SETUP_FILES:
            path = Path(project) / name
            if path.is_file():
                digest.update(name.encode() + b"\0" + path.read_bytes() + b"\0")
        return digest.hexdigest()

    def get(self, project: str | Path, now: float | None = None) -> CacheLookup:
        if self.max_age_s <= 0:
            return CacheLookup(config=None, reason="cache disabled (max age 0)")
        path = self.path_for(project)
        try:
            entry = json.loads(path.read_text(encoding="utf-8"))
            config = TestConfig.model_validate(entry["config"])
            saved_at = float(entry["saved_at"])
        except FileNotFoundError:
            return CacheLookup(config=None, reason="miss")
        except (OSError, ValueError, KeyError, TypeError, ValidationError) as exc:
            return CacheLookup(config=None, reason=f"unreadable entry {path} ({exc}); asking again")
        age = (time.time() if now is None else now) - saved_at
        if age > self.max_age_s:
            return CacheLookup(
                config=None, reason=f"stale ({age / 3600:.1f} h > {self.max_age_s / 3600:g} h)"
            )
        if entry.get("fingerprint") != self.fingerprint(project):
            return CacheLookup(config=None, reason="test setup files changed since it was saved")
        return CacheLookup(config=config, reason=f"hit ({age:.0f} s old, {path})")

    def put(self, project: str | Path, config: TestConfig, now: float | None = None) -> Path:
        path = self.path_for(project)
        path.parent.mkdir(parents=True, exist_ok=True)
        entry = {
            "project": str(Path(project).resolve()),
            "saved_at": time.time() if now is None else now,
            "fingerprint": self.fingerprint(project),
            "config": config.model_dump(mode="json"),
        }
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps(entry, indent=2), encoding="utf-8")
        tmp.replace(path)  # atomic: parallel runs never read half an entry
        return path


def cache_for(plan: ProjectPlan, config: AutofixConfig) -> TestConfigCache:
    return TestConfigCache(resolve(config.fixing.cache_dir), plan.test_config_max_age_hours * 3600)


def choose_checks(plan: ProjectPlan, test_config: TestConfig | None) -> tuple[list[str], str]:
    """The checks to run and where they came from: the run's params, the agent, or detection."""
    if plan.checks:
        return list(plan.checks), "params"
    if test_config is not None:
        return list(test_config.checks), "discover_tests"
    detected = detect_checks(Path(plan.project_path))
    if not detected:
        raise FixingError(
            f"no checks for {plan.project_path}: none given, none discovered, none detected; "
            f"set checks (from: {', '.join(KNOWN_CHECKS)})"
        )
    return detected, "detected"
