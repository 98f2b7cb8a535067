"""The ``verify=`` checks: what each one is, and ``as_checks`` turning a task's list into them.

A task's ``verify`` is a list whose items are any of::

    "pytest -q"                                  a command (its exit code decides)
    "ruff" / "mypy" / "pytest" / "npm test"      a known check tool, run with structured output
    "expect_changes"                             a new commit or a non-empty diff
    {"command": "make lint", "timeout": 120, "env": {...}, "name": "lint"}
    {"expect_changes": True, "commit": True, "since": "attempt"}
    {"expect_files": ["out/*.json"], "non_empty": True, "valid": "json"}
    a callable (result: ParseResult, context) -> None | str | list[str]
    a Check instance (CommandCheck, ToolCheck, ExpectChanges, ExpectFiles, CallableCheck)

A bad item raises ``VerifyConfigError`` naming it and the forms allowed, when the DAG is parsed.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from autofix.checks.model import KNOWN_CHECKS
from autofix.errors import VerifyConfigError
from autofix.verification import CheckKind

DEFAULT_CHECK_TIMEOUT_S = 600.0
FORMS = (
    'a command string, a known tool name, "expect_changes", {"command": ...}, '
    '{"expect_changes": true}, {"expect_files": [...]}, a callable or a Check'
)

CheckFunction = Callable[[Any, Any], str | Sequence[str] | None]


@dataclass(frozen=True)
class Check:
    """One check; ``name`` is how the log, the XCom and the audit name it."""

    name: str

    @property
    def kind(self) -> CheckKind:
        raise NotImplementedError


@dataclass(frozen=True)
class CommandCheck(Check):
    """A command in the task's working directory (a string runs in a shell)."""

    command: str | tuple[str, ...] = ""
    timeout: float = DEFAULT_CHECK_TIMEOUT_S
    env: Mapping[str, str] = field(default_factory=dict)

    @property
    def kind(self) -> CheckKind:
        return CheckKind.COMMAND

    @property
    def text(self) -> str:
        return self.command if isinstance(self.command, str) else " ".join(self.command)


@dataclass(frozen=True)
class ToolCheck(Check):
    """A known check tool (autofix.checks.tools), run with its structured output."""

    timeout: float = DEFAULT_CHECK_TIMEOUT_S

    @property
    def kind(self) -> CheckKind:
        return CheckKind.TOOL


@dataclass(frozen=True)
class ExpectChanges(Check):
    """A new commit, or (unless ``commit``) a changed work tree, since the task or the attempt
    started."""

    commit: bool = False
    since: Literal["task", "attempt"] = "task"

    @property
    def kind(self) -> CheckKind:
        return CheckKind.EXPECT_CHANGES


@dataclass(frozen=True)
class ExpectFiles(Check):
    """Each path or glob (relative to the working directory) matches at least one file."""

    patterns: tuple[str, ...] = ()
    non_empty: bool = False
    valid: Literal["json", "yaml"] | None = None

    @property
    def kind(self) -> CheckKind:
        return CheckKind.EXPECT_FILES


@dataclass(frozen=True)
class CallableCheck(Check):
    """A Python function; what it returns (a message or messages) are the errors."""

    function: CheckFunction | None = None
    timeout: float = DEFAULT_CHECK_TIMEOUT_S

    @property
    def kind(self) -> CheckKind:
        return CheckKind.CALLABLE


def _timeout(value: object, item: object) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or value <= 0:
        raise VerifyConfigError(
            f"verify item {item!r}: timeout must be a positive number of seconds"
        )
    return float(value)


def _from_mapping(item: Mapping[str, Any]) -> Check:
    keys = set(item)
    if "command" in item:
        allowed = {"command", "timeout", "env", "name"}
        command = item["command"]
        if isinstance(command, str) and command.strip():
            text = command
        elif (
            isinstance(command, list | tuple)
            and command
            and all(isinstance(a, str) for a in command)
        ):
            text = " ".join(command)
            command = tuple(command)
        else:
            raise VerifyConfigError(
                f"verify item {item!r}: command must be a non-empty string or list of strings"
            )
        env = item.get("env") or {}
        if not isinstance(env, Mapping):
            raise VerifyConfigError(f"verify item {item!r}: env must be a mapping")
        check: Check = CommandCheck(
            name=str(item.get("name") or text),
            command=command,
            timeout=_timeout(item.get("timeout", DEFAULT_CHECK_TIMEOUT_S), item),
            env={str(k): str(v) for k, v in env.items()},
        )
    elif "expect_changes" in item:
        allowed = {"expect_changes", "commit", "since", "name"}
        since = item.get("since", "task")
        if since not in ("task", "attempt"):
            raise VerifyConfigError(f"verify item {item!r}: since must be 'task' or 'attempt'")
        check = ExpectChanges(
            name=str(item.get("name") or "expect_changes"),
            commit=bool(item.get("commit")),
            since=since,
        )
    elif "expect_files" in item:
        allowed = {"expect_files", "non_empty", "valid", "name"}
        patterns = item["expect_files"]
        if isinstance(patterns, str):
            patterns = [patterns]
        if not patterns or not all(isinstance(p, str) and p for p in patterns):
            raise VerifyConfigError(f"verify item {item!r}: expect_files must list paths or globs")
        valid = item.get("valid")
        if valid not in (None, "json", "yaml"):
            raise VerifyConfigError(f"verify item {item!r}: valid must be 'json' or 'yaml'")
        check = ExpectFiles(
            name=str(item.get("name") or f"expect_files {', '.join(patterns)}"),
            patterns=tuple(patterns),
            non_empty=bool(item.get("non_empty")),
            valid=valid,
        )
    else:
        raise VerifyConfigError(f"verify item {item!r} is none of: {FORMS}")
    unknown = sorted(keys - allowed)
    if unknown:
        raise VerifyConfigError(
            f"verify item {item!r}: unknown key(s) {', '.join(unknown)}; valid: {', '.join(sorted(allowed))}"
        )
    return check


def as_check(item: object) -> Check:
    """One ``verify`` item as a Check (see the module's docstring)."""
    if isinstance(item, Check):
        return item
    if isinstance(item, str):
        text = item.strip()
        if not text:
            raise VerifyConfigError(f"verify item {item!r} is empty: give a command or {FORMS}")
        if text == "expect_changes":
            return ExpectChanges(name="expect_changes")
        if text in KNOWN_CHECKS:
            return ToolCheck(name=text)
        return CommandCheck(name=text, command=text)
    if isinstance(item, Mapping):
        return _from_mapping(item)
    if callable(item):
        name = getattr(item, "__qualname__", None) or getattr(item, "__name__", None) or repr(item)
        return CallableCheck(name=str(name), function=item)
    raise VerifyConfigError(f"verify item {item!r} is none of: {FORMS}")


def as_checks(verify: Sequence[object] | None) -> tuple[Check, ...]:
    """A task's ``verify`` list as checks; names stay unique (the audit counts by name)."""
    if verify is None:
        return ()
    if isinstance(verify, str | Mapping) or callable(verify):
        verify = [verify]
    checks = [as_check(item) for item in verify]
    names = [check.name for check in checks]
    repeated = sorted({name for name in names if names.count(name) > 1})
    if repeated:
        raise VerifyConfigError(
            f"verify names {', '.join(repeated)} more than once: give each a 'name'"
        )
    return tuple(checks)
