"""Parsers for the check tools' machine output (ruff/mypy JSON, mypy text, JUnit XML, eslint, tsc)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from xml.etree import ElementTree

from autofix.checks.model import CheckIssue, Severity, one_line


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
                message=one_line(str(item.get("message", ""))),
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
                message=one_line(message),
                severity=_severity(item.get("severity")),
            )
        )
    return issues


_MYPY_TEXT = re.compile(
    r"^(?P<path>[^:\n]+):(?P<line>\d+):(?:\d+:)?\s*(?P<sev>error|warning|note):\s*(?P<rest>.*)$"
)
_MYPY_CODE = re.compile(r"\s\s\[(?P<code>[a-z0-9\-]+)\]")


def _mypy_message(rest: str) -> tuple[str, str]:
    """``message  [code]`` -> (message, code). A code holds no ``[``, so it can only start two
    characters before the last one (a lazy regex for this was quadratic on long blanks)."""
    body = rest.rstrip()
    bracket = body.rfind("[")
    found = _MYPY_CODE.fullmatch(body, bracket - 2) if bracket >= 2 else None
    return (rest[: bracket - 2], found["code"]) if found else (body, "")


def parse_mypy_text(stdout: str, project: Path) -> list[CheckIssue]:
    """Parse mypy's classic ``file:line: error: message  [code]`` lines."""
    issues = []
    for raw in stdout.splitlines():
        match = _MYPY_TEXT.match(raw)
        if not match:
            continue
        message, code = _mypy_message(match["rest"])
        issues.append(
            CheckIssue(
                tool="mypy",
                path=_relpath(match["path"], project),
                line=int(match["line"]),
                code=code,
                message=one_line(message),
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
        message=one_line(f"{test_id}: {detail}"),
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
                    message=one_line(str(message.get("message", ""))),
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
                    message=one_line(match["msg"]),
                    severity=_severity(match["sev"]),
                )
            )
        elif raw.startswith(" ") and issues and raw.strip():
            last = issues[-1]
            issues[-1] = last.model_copy(
                update={"message": one_line(f"{last.message} {raw.strip()}")}
            )
    return issues
