"""Run one check tool in a project and turn what happened into a ``CheckReport``.

Fail-safe: a tool that fails without a parseable report, is missing, or times out still
yields one error issue, so a broken setup never reads as "clean".
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import tempfile
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from xml.etree import ElementTree

# The module, not its names: find_tool and _mypy_has_json are looked up at call time, so a
# test can replace them.
from autofix.checks import tools
from autofix.checks.model import (
    TOOL_FAILED,
    TOOL_MISSING,
    TOOL_TIMEOUT,
    CheckIssue,
    CheckReport,
    one_line,
)
from autofix.redact import redact

RAW_TAIL_CHARS = 2000


def _run(argv: Sequence[str], cwd: Path, timeout: float, env: Mapping[str, str]) -> tools.Completed:
    # Own process group so a timeout also kills what the tool spawned (pytest-xdist, npm → node).
    proc = subprocess.Popen(
        list(argv),
        cwd=cwd,
        env=dict(env),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        return tools.Completed(None, _decode(out), _decode(err), True)
    return tools.Completed(proc.returncode, _decode(out), _decode(err), False)


def _decode(data: bytes) -> str:
    return data.decode("utf-8", errors="replace")


def _tool_env() -> dict[str, str]:
    env = dict(os.environ)
    # Checks must not dirty the work tree: a stray __pycache__ would land in the agent's commit.
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    env["NO_COLOR"] = "1"
    env["CI"] = "true"  # npm test runners (jest, vitest) skip watch mode
    env.pop("FORCE_COLOR", None)
    return env


def _tail(text: str, limit: int = RAW_TAIL_CHARS) -> str:
    text = text.strip()
    if len(text) > limit:
        text = "…" + text[-limit:]
    return redact(text)


def run_check(project: Path, check: str, timeout: float = 300) -> CheckReport:
    """Run one check in ``project``. Never raises for tool problems; see ``CheckReport.error``."""
    tool = tools.normalize_check(check)
    project = Path(project)
    binary, build = tools.TOOLS[tool]
    exe = tools.find_tool(binary, project)
    if exe is None:
        problem = f"{binary} not found (looked in {tools.lookup_places(project)}); install it there"
        return _failed_report(tool, [binary], None, 0.0, TOOL_MISSING, problem, "")
    with tempfile.TemporaryDirectory(prefix=f"autofix-{binary}-") as tmp:
        invocation = build(exe, project, Path(tmp))
        started = time.monotonic()
        try:
            done = _run(invocation.argv, project, timeout, _tool_env())
        except OSError as exc:
            problem = f"{tool} could not start: {exc}"
            return _failed_report(tool, invocation.argv, None, 0.0, TOOL_FAILED, problem, "")
        duration = round(time.monotonic() - started, 3)
        combined = f"{done.stdout}\n{done.stderr}"
        if done.timed_out:
            problem = f"{tool} timed out after {timeout:g}s"
            return _failed_report(
                tool, invocation.argv, None, duration, TOOL_TIMEOUT, problem, _tail(combined)
            )
        try:
            issues = invocation.parse(done)
        except (ValueError, ElementTree.ParseError) as exc:
            # json.JSONDecodeError is a ValueError: the tool crashed before printing its report.
            problem = f"{tool} exited {done.exit_code} with output that could not be parsed ({exc})"
            return _failed_report(
                tool,
                invocation.argv,
                done.exit_code,
                duration,
                TOOL_FAILED,
                problem,
                _tail(combined),
            )
    tail = _tail(done.stderr if invocation.structured_stdout else combined)
    exit_ok = done.exit_code in invocation.ok_exit_codes
    has_errors = any(issue.severity == "error" for issue in issues)
    error = None
    if not exit_ok and not has_errors:
        # Fail-safe: a non-zero exit with nothing parsed is still an error to fix.
        last = _last_line(combined) or "no output"
        error = f"{tool} exited {done.exit_code}: {last}"
        issues.append(CheckIssue(tool=tool, code=TOOL_FAILED, message=one_line(error)))
        tail = _tail(combined)
    return CheckReport(
        tool=tool,
        command=invocation.argv,
        exit_code=done.exit_code,
        issues=issues,
        duration_s=duration,
        ok=exit_ok and not has_errors,
        raw_tail=tail,
        error=error,
    )


_KEY_LINE = re.compile(r"(?i)error|fail|exception|not ok|✗|✕")
_NPM_CHATTER = re.compile(r"^npm (warn|error|ERR!)|A complete log of this run")


def _last_line(text: str) -> str:
    """The line that best says why a tool failed: the last error-looking line of its own output.

    npm's own lines ("npm error Lifecycle script ...", the debug-log path) say nothing about
    the test, so they are used only when there is nothing else.
    """
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    own = [line for line in lines if not _NPM_CHATTER.search(line)]
    for pool in (own, lines):
        keyed = [line for line in pool if _KEY_LINE.search(line)]
        if keyed:
            return one_line(keyed[-1])
    return one_line((own or lines)[-1]) if lines else ""


def _failed_report(
    tool: str,
    command: list[str],
    exit_code: int | None,
    duration: float,
    code: str,
    error: str,
    tail: str,
) -> CheckReport:
    return CheckReport(
        tool=tool,
        command=command,
        exit_code=exit_code,
        issues=[CheckIssue(tool=tool, code=code, message=one_line(error))],
        duration_s=duration,
        ok=False,
        raw_tail=tail,
        error=redact(error),
    )


def run_checks(project: Path, checks: Sequence[str], timeout: float = 300) -> list[CheckReport]:
    """Run each check in order; ``timeout`` applies to each tool separately."""
    # Fail fast on a typo, before any run.
    names = [tools.normalize_check(check) for check in checks]
    return [run_check(project, name, timeout) for name in dict.fromkeys(names)]
