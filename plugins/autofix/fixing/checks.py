"""Run a project's real check tools and parse their machine output into one model.

Each tool (ruff, mypy, pytest, eslint, tsc, npm test) becomes a ``CheckReport`` holding
``CheckIssue`` values. The fixing loop counts errors from these reports and hands the
agent a bounded rendering of them. Fail-safe: a tool that fails without a parseable
report, is missing, or times out still yields one error issue, so a broken setup never
reads as "clean".

Core module: no Airflow imports.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import tomllib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Literal
from xml.etree import ElementTree

from pydantic import BaseModel, ConfigDict, Field

from autofix.redact import redact

Severity = Literal["error", "warning", "note"]

PYTHON_CHECKS: tuple[str, ...] = ("ruff", "mypy", "pytest")
JS_CHECKS: tuple[str, ...] = ("eslint", "tsc", "npm test")
KNOWN_CHECKS: tuple[str, ...] = PYTHON_CHECKS + JS_CHECKS

# Issue codes for problems with the tool itself rather than with the code it checks.
TOOL_MISSING = "tool-missing"
TOOL_FAILED = "tool-failed"
TOOL_TIMEOUT = "timeout"

RAW_TAIL_CHARS = 2000
MAX_MESSAGE_CHARS = 300

_NPM_PLACEHOLDER_TEST = 'echo "Error: no test specified" && exit 1'


class CheckIssue(BaseModel):
    """One finding of one tool, located in the project when the tool says where."""

    model_config = ConfigDict(frozen=True)

    tool: str
    path: str = ""  # relative to the project, POSIX separators; "" when not tied to a file
    line: int | None = None  # 1-based
    code: str = ""
    message: str = ""
    severity: Severity = "error"


class CheckReport(BaseModel):
    """The result of running one check tool once."""

    model_config = ConfigDict(frozen=True)

    tool: str
    command: list[str]
    exit_code: int | None  # None: the tool did not run to completion (missing, timed out)
    issues: list[CheckIssue] = Field(default_factory=list)
    duration_s: float = 0.0
    ok: bool
    raw_tail: str = ""
    error: str | None = None  # why the tool itself could not give a verdict

    @property
    def error_count(self) -> int:
        return sum(1 for issue in self.issues if issue.severity == "error")


# --------------------------------------------------------------------------- tool lookup


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


def _lookup_places(project: Path) -> str:
    return (
        f"{project}/node_modules/.bin, {project}/.venv/bin, {project}/venv/bin, "
        f"{Path(sys.executable).parent} and PATH"
    )


# --------------------------------------------------------------------------- running


@dataclass(frozen=True)
class _Completed:
    exit_code: int | None
    stdout: str
    stderr: str
    timed_out: bool


def _run(argv: Sequence[str], cwd: Path, timeout: float, env: Mapping[str, str]) -> _Completed:
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
        return _Completed(None, _decode(out), _decode(err), True)
    return _Completed(proc.returncode, _decode(out), _decode(err), False)


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


def _one_line(text: str, limit: int = MAX_MESSAGE_CHARS) -> str:
    text = " ".join(text.split())
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    return redact(text)


def _relpath(path: str, project: Path) -> str:
    if not path:
        return ""
    candidate = Path(path)
    if candidate.is_absolute():
        try:
            candidate = candidate.resolve().relative_to(project.resolve())
        except ValueError:
            return candidate.as_posix()
    return candidate.as_posix().removeprefix("./")


# --------------------------------------------------------------------------- parsers


def parse_ruff_json(stdout: str, project: Path) -> list[CheckIssue]:
    """Parse ``ruff check --output-format json``: a JSON array of diagnostics."""
    data = json.loads(stdout or "[]")
    issues = []
    for item in data:
        location = item.get("location") or {}
        code = item.get("code") or "syntax-error"  # ruff gives syntax errors no rule code
        issues.append(
            CheckIssue(
                tool="ruff",
                path=_relpath(item.get("filename") or "", project),
                line=location.get("row"),
                code=str(code),
                message=_one_line(str(item.get("message", ""))),
            )
        )
    return issues


def parse_mypy_json(stdout: str, project: Path) -> list[CheckIssue]:
    """Parse ``mypy --output json``: one JSON object per line."""
    issues = []
    for raw in stdout.splitlines():
        raw = raw.strip()
        if not raw.startswith("{"):
            continue
        item = json.loads(raw)
        message = str(item.get("message", ""))
        if item.get("hint"):
            message = f"{message} ({item['hint']})"
        issues.append(
            CheckIssue(
                tool="mypy",
                path=_relpath(str(item.get("file") or ""), project),
                line=item.get("line"),
                code=str(item.get("code") or ""),
                message=_one_line(message),
                severity=_severity(item.get("severity")),
            )
        )
    return issues


_MYPY_TEXT = re.compile(
    r"^(?P<path>[^:\n]+):(?P<line>\d+):(?:\d+:)?\s*(?P<sev>error|warning|note):\s*"
    r"(?P<msg>.*?)(?:\s\s\[(?P<code>[a-z0-9\-]+)\])?\s*$"
)


def parse_mypy_text(stdout: str, project: Path) -> list[CheckIssue]:
    """Parse mypy's classic ``file:line: error: message  [code]`` lines."""
    issues = []
    for raw in stdout.splitlines():
        match = _MYPY_TEXT.match(raw)
        if not match:
            continue
        issues.append(
            CheckIssue(
                tool="mypy",
                path=_relpath(match["path"], project),
                line=int(match["line"]),
                code=match["code"] or "",
                message=_one_line(match["msg"]),
                severity=_severity(match["sev"]),
            )
        )
    return issues


def _severity(value: object) -> Severity:
    if value in ("warning", "note"):
        return "warning" if value == "warning" else "note"
    return "error"


_LOCATION = re.compile(r"^(?P<path>[^\s:][^:\n]*\.py):(?P<line>\d+):", re.MULTILINE)


def parse_junit_xml(xml_text: str, project: Path) -> list[CheckIssue]:
    """Parse pytest's JUnit XML (xunit1 family, which keeps ``file`` and ``line``).

    Only the file pytest itself just wrote is parsed, so stdlib ElementTree is safe here.
    """
    root = ElementTree.fromstring(xml_text)
    issues = []
    for case in root.iter("testcase"):
        for kind in ("failure", "error"):
            for element in case.findall(kind):
                issues.append(_junit_issue(case, element, kind, project))
    return issues


def _junit_issue(
    case: ElementTree.Element, element: ElementTree.Element, kind: str, project: Path
) -> CheckIssue:
    file = _relpath(case.get("file") or "", project)
    name = case.get("name") or ""
    classname = case.get("classname") or ""
    text = element.text or ""
    locations = [(m["path"], int(m["line"])) for m in _LOCATION.finditer(text)]
    if not file and classname:
        file = classname.replace(".", "/") + ".py"
    # The test's own frame gives the line to look at; the last frame is where it blew up.
    own = [line for path, line in locations if _relpath(path, project) == file]
    line: int | None = own[0] if own else None
    if line is None and case.get("line") is not None:
        line = int(case.get("line") or "0") + 1  # junit lines are 0-based
    if classname:
        module = file.removesuffix(".py").replace("/", ".")
        classes = classname.removeprefix(module).strip(".")
        test_id = "::".join(part for part in (file, *classes.split("."), name) if part)
    else:
        test_id = file or name  # collection errors: the case is the module itself
    detail = element.get("message") or ""
    errors = [ln.strip()[1:].strip() for ln in text.splitlines() if ln.startswith("E ")]
    if errors and (not detail or detail == "collection failure"):
        detail = errors[-1]
    if locations:
        crash_path, crash_line = locations[-1]
        crash_rel = _relpath(crash_path, project)
        if (crash_rel, crash_line) != (file, line):
            detail = f"{detail} (raised at {crash_rel}:{crash_line})"
    return CheckIssue(
        tool="pytest",
        path=file,
        line=line,
        code=kind,
        message=_one_line(f"{test_id}: {detail}"),
    )


def parse_eslint_json(stdout: str, project: Path) -> list[CheckIssue]:
    """Parse ``eslint -f json``: files with their messages (severity 2 = error, 1 = warning)."""
    issues = []
    for result in json.loads(stdout or "[]"):
        path = _relpath(str(result.get("filePath") or ""), project)
        for message in result.get("messages") or []:
            issues.append(
                CheckIssue(
                    tool="eslint",
                    path=path,
                    line=message.get("line"),
                    code=str(
                        message.get("ruleId") or ("parse-error" if message.get("fatal") else "")
                    ),
                    message=_one_line(str(message.get("message", ""))),
                    severity="error" if message.get("severity") == 2 else "warning",
                )
            )
    return issues


_TSC = re.compile(
    r"^(?:(?P<path>[^\s(][^(\n]*)\((?P<line>\d+),\d+\):\s*)?"
    r"(?P<sev>error|warning)\s+(?P<code>TS\d+):\s*(?P<msg>.*)$"
)


def parse_tsc_text(stdout: str, project: Path) -> list[CheckIssue]:
    """Parse ``tsc --pretty false``: ``file(line,col): error TSxxxx: message`` plus indented detail."""
    issues: list[CheckIssue] = []
    for raw in stdout.splitlines():
        match = _TSC.match(raw)
        if match:
            issues.append(
                CheckIssue(
                    tool="tsc",
                    path=_relpath(match["path"] or "", project),
                    line=int(match["line"]) if match["line"] else None,
                    code=match["code"],
                    message=_one_line(match["msg"]),
                    severity=_severity(match["sev"]),
                )
            )
        elif raw.startswith(" ") and issues and raw.strip():
            last = issues[-1]
            issues[-1] = last.model_copy(
                update={"message": _one_line(f"{last.message} {raw.strip()}")}
            )
    return issues


# --------------------------------------------------------------------------- tools


@dataclass(frozen=True)
class _Invocation:
    argv: list[str]
    parse: Callable[[_Completed], list[CheckIssue]]
    ok_exit_codes: frozenset[int] = frozenset({0})
    structured_stdout: bool = False  # stdout is a report; the tail should show stderr


def _ruff(exe: str, project: Path, scratch: Path) -> _Invocation:
    return _Invocation(
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


def _mypy(exe: str, project: Path, scratch: Path) -> _Invocation:
    argv = [exe, "--show-error-codes", "--no-error-summary", "--no-color-output", "--no-pretty"]
    if not _mypy_declares_files(project):
        argv += ["--exclude", r"(^|/)(\.venv|venv|node_modules|build|dist|\.git)/", "."]
    if _mypy_has_json(exe):
        return _Invocation(
            [*argv[:1], "--output", "json", *argv[1:]],
            lambda done: parse_mypy_json(done.stdout, project),
            structured_stdout=True,
        )
    return _Invocation(argv, lambda done: parse_mypy_text(done.stdout, project))


def _pytest(exe: str, project: Path, scratch: Path) -> _Invocation:
    report = scratch / "junit.xml"

    def parse(done: _Completed) -> list[CheckIssue]:
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

    return _Invocation(
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


def _eslint(exe: str, project: Path, scratch: Path) -> _Invocation:
    return _Invocation(
        [exe, "-f", "json", "."],
        lambda done: parse_eslint_json(done.stdout, project),
        structured_stdout=True,
    )


def _tsc(exe: str, project: Path, scratch: Path) -> _Invocation:
    return _Invocation(
        [exe, "--noEmit", "--pretty", "false"],
        lambda done: parse_tsc_text(done.stdout, project),
    )


def _npm_test(exe: str, project: Path, scratch: Path) -> _Invocation:
    return _Invocation([exe, "test"], lambda done: [])


_TOOLS: dict[str, tuple[str, Callable[[str, Path, Path], _Invocation]]] = {
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
    if key not in _TOOLS:
        raise ValueError(f"unknown check {name!r}; choose from: {', '.join(KNOWN_CHECKS)}")
    return key


def run_check(project: Path, check: str, timeout: float = 300) -> CheckReport:
    """Run one check in ``project``. Never raises for tool problems; see ``CheckReport.error``."""
    tool = normalize_check(check)
    project = Path(project)
    binary, build = _TOOLS[tool]
    exe = find_tool(binary, project)
    if exe is None:
        problem = f"{binary} not found (looked in {_lookup_places(project)}); install it there"
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
        issues.append(CheckIssue(tool=tool, code=TOOL_FAILED, message=_one_line(error)))
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
            return _one_line(keyed[-1])
    return _one_line((own or lines)[-1]) if lines else ""


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
        issues=[CheckIssue(tool=tool, code=code, message=_one_line(error))],
        duration_s=duration,
        ok=False,
        raw_tail=tail,
        error=redact(error),
    )


def run_checks(project: Path, checks: Sequence[str], timeout: float = 300) -> list[CheckReport]:
    """Run each check in order; ``timeout`` applies to each tool separately."""
    names = [normalize_check(check) for check in checks]  # fail fast on a typo, before any run
    return [run_check(project, name, timeout) for name in dict.fromkeys(names)]


# --------------------------------------------------------------------------- detection


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


# --------------------------------------------------------------------------- grouping


def error_count(reports: Iterable[CheckReport]) -> int:
    """Errors across reports; warnings and notes do not count."""
    return sum(report.error_count for report in reports)


def counts_by_tool(reports: Iterable[CheckReport]) -> dict[str, int]:
    return {report.tool: report.error_count for report in reports}


# Lower is more urgent: a broken tool or syntax hides everything else; failing tests are
# behaviour; type errors often explain test failures; lint is cheapest and last.
_TOOL_RANK = {"pytest": 1, "npm test": 1, "mypy": 2, "tsc": 2, "ruff": 3, "eslint": 3}
_BLOCKING_CODES = {
    TOOL_MISSING,
    TOOL_FAILED,
    TOOL_TIMEOUT,
    "invalid-syntax",  # ruff >= 0.12
    "syntax-error",  # older ruff: no code at all
    "syntax",  # mypy
    "parse-error",  # eslint fatal
    "error",  # pytest: collection or fixture error, not an assertion
}
_SEVERITY_RANK = {"error": 0, "warning": 1, "note": 2}


def _issue_rank(issue: CheckIssue) -> tuple[int, int]:
    blocking = issue.code in _BLOCKING_CODES and issue.severity == "error"
    return (_SEVERITY_RANK[issue.severity], 0 if blocking else _TOOL_RANK.get(issue.tool, 4))


def group_issues(reports: Iterable[CheckReport]) -> dict[str, list[CheckIssue]]:
    """Issues grouped by file (``<tool>`` for file-less ones), most urgent group first.

    Within a group issues are ordered by line, so an agent can fix a file top to bottom.
    """
    groups: dict[str, list[CheckIssue]] = {}
    for report in reports:
        for issue in report.issues:
            groups.setdefault(issue.path or f"<{issue.tool}>", []).append(issue)

    def group_key(item: tuple[str, list[CheckIssue]]) -> tuple[tuple[int, int], int, str]:
        key, issues = item
        errors = sum(1 for issue in issues if issue.severity == "error")
        return (min(_issue_rank(issue) for issue in issues), -errors, key)

    ordered = sorted(groups.items(), key=group_key)
    return {
        key: sorted(issues, key=lambda i: (i.line or 0, _issue_rank(i), i.tool, i.code))
        for key, issues in ordered
    }


def render_issues(
    reports: Sequence[CheckReport], max_chars: int = 6000, max_per_file: int = 15
) -> str:
    """Compact text of the grouped issues for a fix prompt, bounded to ``max_chars``.

    Most urgent files first (see ``group_issues``). Notes are left out (they repeat
    context the agent can read in the file). Whatever does not fit is counted in a final
    line, so the agent knows the list is partial.
    """
    groups = group_issues(reports)
    visible_groups = {
        key: [issue for issue in issues if issue.severity != "note"]
        for key, issues in groups.items()
    }
    total_visible = sum(len(issues) for issues in visible_groups.values())
    files_with_errors = sum(
        1 for issues in groups.values() if any(i.severity == "error" for i in issues)
    )
    header = f"{error_count(reports)} error(s) in {files_with_errors} file(s)"
    per_tool = ", ".join(f"{tool} {n}" for tool, n in counts_by_tool(reports).items() if n)
    if per_tool:
        header += f" ({per_tool})"
    lines = [header]
    budget = max_chars - 100  # room for the "showing N of M" line
    used = len(header)
    shown = 0
    full = False
    for key, issues in visible_groups.items():
        if not issues or full:
            continue
        block = [f"{key}:"]
        for issue in issues[:max_per_file]:
            where = str(issue.line) if issue.line is not None else "-"
            label = f"{issue.tool} {issue.code}".strip()
            prefix = "" if issue.severity == "error" else f"{issue.severity}: "
            line = f"  {where}: [{label}] {prefix}{issue.message}"
            if used + sum(len(x) + 1 for x in block) + len(line) + 1 > budget:
                full = True
                break
            block.append(line)
        if len(block) == 1:  # not even one issue of this file fits
            break
        if not full and len(issues) > max_per_file:
            block.append(f"  … {len(issues) - max_per_file} more in this file")
        lines.extend(block)
        used += sum(len(x) + 1 for x in block)
        shown += len(block) - 1 - (1 if block[-1].startswith("  … ") else 0)
    if shown < total_visible:
        lines.append(
            f"(showing {shown} of {total_visible} issues; the checks run again after your fix)"
        )
    return "\n".join(lines)[:max_chars]
