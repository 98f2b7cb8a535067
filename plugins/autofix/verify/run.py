"""Running one check after an attempt: a ``CheckOutcome`` with ranked errors, never an exception.

Checks get the agent's safeguards: commands run through ``autofix.runner`` (own process group,
wall-clock timeout, SIGTERM then SIGKILL, bounded output tails), everything they print is
redacted before it is stored or fed back, and a callable runs under a timeout.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from autofix import gitops
from autofix.checks.issue_groups import group_issues
from autofix.checks.model import TOOL_TIMEOUT, CheckIssue, CheckReport
from autofix.checks.run import run_check
from autofix.checks.text import issues_from_text
from autofix.errors import GitError, RunnerError
from autofix.parser import ResponseParser
from autofix.redact import redact
from autofix.result import ParseResult
from autofix.runner import Runner
from autofix.verification import MAX_CHECK_ERRORS, CheckOutcome
from autofix.verify.checks import (
    CallableCheck,
    Check,
    CommandCheck,
    ExpectChanges,
    ExpectFiles,
    ToolCheck,
)

OUTPUT_TAIL_LINES = 400  # what a command check keeps of each stream
MAX_LINE_CHARS = 4000
MAX_VALIDATED_BYTES = 20 * 1024 * 1024  # expect_files valid=json|yaml reads at most this much


@dataclass(frozen=True)
class TreeState:
    """Where the work tree stood: HEAD, and the tree object its files (tracked, changed and
    untracked, .gitignore honoured) would make."""

    head: str
    tree: str


def tree_state(cwd: Path) -> TreeState | None:
    """None outside a git repository with a commit (expect_changes then fails, saying so).
    The files are hashed into a throwaway index, a copy of the real one (so only changed files
    are read again), so the repository's own index is never touched."""
    try:
        if gitops.repo_top(cwd) is None:
            return None
        head = gitops.head(cwd)
        real_index = Path(gitops.git(cwd, "rev-parse", "--git-path", "index").stdout.strip())
        if not real_index.is_absolute():
            real_index = cwd / real_index
        with tempfile.TemporaryDirectory(prefix="autofix-verify-") as tmp:
            index = Path(tmp) / "index"
            if real_index.is_file():
                shutil.copyfile(real_index, index)
            env = gitops.env_with({"GIT_INDEX_FILE": str(index)})
            gitops.git(cwd, "add", "--all", env=env)
            tree = gitops.git(cwd, "write-tree", env=env).stdout.strip()
    except (GitError, OSError):
        return None
    return TreeState(head, tree)


@dataclass(frozen=True)
class CheckInput:
    """What a check reads: the attempt's verdict, the Airflow context (or None), the work tree."""

    cwd: Path
    result: ParseResult
    context: Any
    task_start: TreeState | None
    attempt_start: TreeState | None
    parser: ResponseParser  # the task's own: its noise rules judge a check's output too


def _issue_line(issue: CheckIssue) -> str:
    where = issue.path or issue.tool
    if issue.line is not None:
        where += f":{issue.line}"
    label = f"{issue.tool} {issue.code}".strip()
    prefix = "" if issue.severity == "error" else f"{issue.severity}: "
    return f"{where}: [{label}] {prefix}{issue.message}"


def _ranked(reports: list[CheckReport]) -> list[str]:
    """Error issues first, in the fix prompt's order (blocking, tests, types, lint)."""
    lines: list[str] = []
    for issues in group_issues(reports).values():
        lines += [_issue_line(i) for i in issues if i.severity == "error"]
    return lines


def _command_errors(
    check: CommandCheck,
    given: CheckInput,
    exit_code: int | None,
    out: str,
    err: str,
) -> list[str]:
    """The tool's own findings where its output has them, else the classifier's error blocks,
    else the last lines: ranked errors, not raw text."""
    cwd = given.cwd
    issues = issues_from_text(check.text, f"{out}\n{err}", cwd)
    if any(issue.severity == "error" for issue in issues):
        report = CheckReport(
            tool=check.name, command=[check.text], exit_code=exit_code, issues=issues, ok=False
        )
        return _ranked([report])
    verdict = given.parser.parse(exit_code if exit_code not in (0, None) else 1, err, out)
    blocks = [block.text for block in verdict.errors]
    if blocks:
        return blocks
    tail = [line.strip() for line in f"{out}\n{err}".splitlines() if line.strip()]
    return tail[-MAX_CHECK_ERRORS:] or [f"exited {exit_code} with no output"]


def _run_command(check: CommandCheck, given: CheckInput) -> CheckOutcome:
    cwd = given.cwd
    env = {
        "PYTHONDONTWRITEBYTECODE": "1",  # a check must not dirty the tree the agent commits
        "NO_COLOR": "1",
        "CI": "true",
        **check.env,
    }
    started = time.monotonic()
    try:
        done = Runner(
            check.command,
            cwd=cwd,
            env=env,
            shell=isinstance(check.command, str),
            timeout=check.timeout,
            grace=5.0,
            tail_lines=OUTPUT_TAIL_LINES,
            max_line_chars=MAX_LINE_CHARS,
        ).run()
    except (RunnerError, OSError) as exc:
        return CheckOutcome(
            name=check.name,
            kind=check.kind,
            passed=False,
            errors=[f"could not start: {exc}"],
            error_count=1,
        )
    duration = round(time.monotonic() - started, 3)
    if done.timed_out:
        errors = [f"timed out after {check.timeout:g}s (the check's process group was killed)"]
        return CheckOutcome(
            name=check.name,
            kind=check.kind,
            passed=False,
            errors=errors,
            error_count=1,
            timed_out=True,
            duration_s=duration,
        )
    if done.exit_code == 0:
        return CheckOutcome(
            name=check.name, kind=check.kind, passed=True, exit_code=0, duration_s=duration
        )
    errors = _command_errors(check, given, done.exit_code, done.stdout_tail, done.stderr_tail)
    return CheckOutcome(
        name=check.name,
        kind=check.kind,
        passed=False,
        errors=errors,
        error_count=len(errors),
        exit_code=done.exit_code,
        duration_s=duration,
    )


def _run_tool(check: ToolCheck, cwd: Path) -> CheckOutcome:
    report = run_check(cwd, check.name, check.timeout)
    errors = _ranked([report])
    return CheckOutcome(
        name=check.name,
        kind=check.kind,
        passed=report.ok,
        errors=[] if report.ok else errors,
        error_count=0 if report.ok else report.error_count,
        exit_code=report.exit_code,
        timed_out=any(issue.code == TOOL_TIMEOUT for issue in report.issues),
        duration_s=report.duration_s,
    )


def _expect_changes(check: ExpectChanges, given: CheckInput) -> list[str]:
    before = given.task_start if check.since == "task" else given.attempt_start
    now = tree_state(given.cwd)
    if before is None or now is None:
        return [f"{given.cwd} is not a git repository with a commit: expect_changes needs one"]
    if now.head != before.head:
        return []
    what = "since the task started" if check.since == "task" else "in this attempt"
    if check.commit:
        return [f"no new commit {what} (HEAD is still {now.head[:12]})"]
    if now.tree != before.tree:
        return []
    return [f"no new commit and no change to the work tree {what} (HEAD is still {now.head[:12]})"]


def _file_problem(path: Path, check: ExpectFiles, shown: str) -> str | None:
    size = path.stat().st_size
    if check.non_empty and size == 0:
        return f"{shown} is empty"
    if check.valid is None:
        return None
    if size > MAX_VALIDATED_BYTES:
        return f"{shown} is {size} bytes, over the {MAX_VALIDATED_BYTES} bytes valid= reads"
    text = path.read_text(encoding="utf-8", errors="replace")
    try:
        if check.valid == "json":
            json.loads(text)
        else:
            yaml.safe_load(text)
    except (ValueError, yaml.YAMLError) as exc:
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        return f"{shown} is not valid {check.valid.upper()}: {first}"
    return None


def _expect_files(check: ExpectFiles, cwd: Path) -> list[str]:
    errors: list[str] = []
    for pattern in check.patterns:
        base = Path(pattern)
        if base.is_absolute():
            found = [base] if base.exists() else []
        else:
            found = sorted(p for p in cwd.glob(pattern) if p.is_file())
        if not found:
            errors.append(f"{pattern}: no such file in {cwd}")
            continue
        for path in found[:MAX_CHECK_ERRORS]:
            shown = os.path.relpath(path, cwd) if not base.is_absolute() else str(path)
            problem = (
                _file_problem(path, check, shown) if path.is_file() else f"{shown} is not a file"
            )
            if problem:
                errors.append(problem)
    return errors


def _call(check: CallableCheck, given: CheckInput) -> tuple[list[str], bool]:
    """(errors, timed out). A function that raises has failed, with its exception as the error."""
    outcome: dict[str, Any] = {}

    def target() -> None:
        try:
            outcome["value"] = (
                check.function(given.result, given.context) if check.function else None
            )
        except Exception as exc:  # the user's function: any failure is this check's failure
            outcome["error"] = f"{type(exc).__name__}: {exc}"

    worker = threading.Thread(target=target, name=f"verify-{check.name}", daemon=True)
    worker.start()
    worker.join(check.timeout)
    if worker.is_alive():
        return [f"did not return within {check.timeout:g}s"], True
    if "error" in outcome:
        return [str(outcome["error"])], False
    value = outcome.get("value")
    if value is None:
        return [], False
    if isinstance(value, str):
        return ([value] if value.strip() else []), False
    return [str(item) for item in value if str(item).strip()], False


def run_one(check: Check, given: CheckInput) -> CheckOutcome:
    """One check after one attempt; every problem, even the check's own, is a failed outcome."""
    if isinstance(check, CommandCheck):
        return _run_command(check, given)
    if isinstance(check, ToolCheck):
        return _run_tool(check, given.cwd)
    started = time.monotonic()
    timed_out = False
    if isinstance(check, ExpectChanges):
        errors = _expect_changes(check, given)
    elif isinstance(check, ExpectFiles):
        errors = _expect_files(check, given.cwd)
    elif isinstance(check, CallableCheck):
        errors, timed_out = _call(check, given)
    else:
        raise TypeError(f"unknown check {check!r}")
    return CheckOutcome(
        name=check.name,
        kind=check.kind,
        passed=not errors,
        errors=[redact(line) for line in errors],
        error_count=len(errors),
        timed_out=timed_out,
        duration_s=round(time.monotonic() - started, 3),
    )
