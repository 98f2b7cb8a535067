"""Findings from a check command's plain-text output, whatever the command was.

A ``verify=`` command is the user's own (``make lint``, ``pytest -q tests/api``), so its output
is text, not the JSON the DAG's own tool runs ask for. The forms here are the ones compilers,
linters and test runners share: mypy's and tsc's own parsers where the program is theirs,
pytest's summary lines, eslint's "stylish" blocks, and ``path:line[:col]: message`` (ruff,
flake8, pylint, gcc, go vet, rustc's short form, shellcheck's gcc format...).
"""

from __future__ import annotations

import re
from pathlib import Path

from autofix.checks.model import CheckIssue, Severity, one_line
from autofix.checks.parsers import parse_mypy_text, parse_tsc_text

# path:line[:col][:] message — the path has no blanks and holds a dot or a slash.
_LOCATED = re.compile(r"^(?P<path>[^\s:]*[./][^\s:]*):(?P<line>\d+)(?::\d+)?:?\s+(?P<msg>\S.*)$")
_SEVERITY_WORD = re.compile(r"^(?P<sev>fatal error|error|warning|note|info)(?:\[[^\]]*\])?:\s*")
_CODE = re.compile(r"^(?P<code>[A-Z]{1,4}\d{2,5}|[a-z]+(?:-[a-z]+)+)\b[:\s]*")
# pytest's short test summary: FAILED tests/test_a.py::test_b - AssertionError: ...
_PYTEST = re.compile(
    r"^(?P<what>FAILED|ERROR) (?P<path>[^\s:]+)(?:::(?P<test>\S+))?(?: - (?P<msg>.*))?$"
)
# eslint "stylish": a file line, then "  12:5  error  message  rule-id" under it.
_STYLISH = re.compile(
    r"^\s+(?P<line>\d+):\d+\s+(?P<sev>error|warning)\s+(?P<msg>.+?)(?:\s{2,}(?P<code>\S+))?$"
)


def _program(command: str) -> str:
    """The checking program of a command line: ``npx eslint .`` → eslint."""
    words = [w for w in command.split() if "=" not in w.split("/")[0]]
    for word in words:
        name = Path(word).name
        if name not in (
            "npx",
            "uv",
            "uvx",
            "poetry",
            "run",
            "python",
            "python3",
            "-m",
            "pnpm",
            "yarn",
        ):
            return name
    return ""


def _severity(word: str | None) -> Severity:
    if word in ("warning",):
        return "warning"
    if word in ("note", "info"):
        return "note"
    return "error"


def _located(tool: str, line: str) -> CheckIssue | None:
    found = _LOCATED.match(line)
    if found is None:
        return None
    message = found["msg"]
    severity: Severity = "error"
    word = _SEVERITY_WORD.match(message)
    if word is not None:
        severity = _severity(word["sev"])
        message = message[word.end() :]
    code = _CODE.match(message)
    return CheckIssue(
        tool=tool,
        path=found["path"].removeprefix("./"),
        line=int(found["line"]),
        code=code["code"] if code else "",
        message=one_line(message[code.end() :] if code else message),
        severity=severity,
    )


def issues_from_text(command: str, text: str, project: Path) -> list[CheckIssue]:
    """What the command's output says is wrong, as issues; [] when it says nothing findable."""
    program = _program(command)
    tool = program or "command"
    if program in ("mypy", "dmypy"):
        return parse_mypy_text(text, project)
    if program == "tsc":
        return parse_tsc_text(text, project)
    issues: list[CheckIssue] = []
    stylish_file = ""
    for raw in text.splitlines():
        line = raw.rstrip()
        pytest = _PYTEST.match(line)
        if pytest is not None:
            where = pytest["path"] + (f"::{pytest['test']}" if pytest["test"] else "")
            issues.append(
                CheckIssue(
                    tool="pytest" if program in ("", "pytest") else tool,
                    path=pytest["path"],
                    code="failed" if pytest["what"] == "FAILED" else "error",
                    message=one_line(f"{where}: {pytest['msg'] or pytest['what'].lower()}"),
                )
            )
            continue
        stylish = _STYLISH.match(line) if stylish_file else None
        if stylish is not None:
            issues.append(
                CheckIssue(
                    tool=tool,
                    path=stylish_file,
                    line=int(stylish["line"]),
                    code=stylish["code"] or "",
                    message=one_line(stylish["msg"]),
                    severity=_severity(stylish["sev"]),
                )
            )
            continue
        located = _located(tool, line)
        if located is not None:
            issues.append(located)
            continue
        # A bare file path line starts an eslint "stylish" block.
        stylish_file = (
            line
            if line and not line[0].isspace() and ("/" in line or "." in line) and " " not in line
            else ""
        )
    return issues
