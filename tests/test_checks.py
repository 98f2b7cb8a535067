"""checks: real tools on real files, plus the parsers on real recorded output."""

from __future__ import annotations

import json
import os
import shutil
import stat
import textwrap
from pathlib import Path

import pytest

from autofix.checks import tools as checks
from autofix.checks.detect import detect_checks
from autofix.checks.issue_groups import group_issues, render_issues
from autofix.checks.model import (
    TOOL_FAILED,
    TOOL_MISSING,
    TOOL_TIMEOUT,
    CheckIssue,
    CheckReport,
    error_count,
)
from autofix.checks.parsers import (
    parse_eslint_json,
    parse_junit_xml,
    parse_mypy_text,
    parse_tsc_text,
)
from autofix.checks.run import run_check, run_checks
from autofix.checks.tools import normalize_check

E2E = pytest.mark.e2e  # runs the real ruff, mypy, pytest or npm on a scratch project


def _write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")
    return root


def _fake_tool(project: Path, name: str, script: str) -> None:
    """A real executable in the project's .venv/bin, which find_tool prefers."""
    path = project / ".venv" / "bin" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("#!/bin/sh\n" + script + "\n", encoding="utf-8")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)


PY_PROJECT = {
    "pyproject.toml": """\
        [tool.ruff.lint]
        select = ["E", "F"]
        [tool.pytest.ini_options]
        testpaths = ["tests"]
        pythonpath = ["."]
    """,
    "pkg/__init__.py": "",
    "pkg/core.py": """\
        import sys


        def double(x: int) -> int:
            return x * 3


        def name() -> str:
            return 42
    """,
    "tests/test_core.py": """\
        import pytest

        from pkg.core import double


        def test_double() -> None:
            assert double(2) == 4


        def test_ok() -> None:
            assert double(0) == 0


        @pytest.mark.skip(reason="not relevant")
        def test_skipped() -> None:
            raise AssertionError
    """,
    "tests/test_broken.py": "import no_such_module_xyz\n",
}


@pytest.fixture
def py_project(tmp_path: Path) -> Path:
    return _write(tmp_path / "proj", PY_PROJECT)


@E2E
def test_real_python_tools_report_parsed_issues(py_project: Path) -> None:
    reports = run_checks(py_project, ["ruff", "mypy", "pytest"], timeout=120)
    by_tool = {r.tool: r for r in reports}

    ruff = by_tool["ruff"]
    assert (ruff.exit_code, ruff.ok) == (1, False)
    assert [(i.path, i.line, i.code) for i in ruff.issues] == [
        ("pkg/core.py", 1, "F401"),
        ("tests/test_broken.py", 1, "F401"),
    ]
    assert "--output-format" in ruff.command

    mypy = by_tool["mypy"]
    assert not mypy.ok
    assert "json" in mypy.command  # the installed mypy supports --output json
    assert sorted((i.path, i.line, i.code, i.severity) for i in mypy.issues) == [
        ("pkg/core.py", 9, "return-value", "error"),
        ("tests/test_broken.py", 1, "import-not-found", "error"),
    ]
    # JSON mode folds mypy's follow-up note into the message as a hint
    assert "missing-imports" in next(i.message for i in mypy.issues if i.code == "import-not-found")

    pytest_report = by_tool["pytest"]
    assert pytest_report.exit_code == 1
    found = sorted((i.path, i.line, i.code) for i in pytest_report.issues)
    # the failing assertion's line in the test, and the collection error of the broken module
    assert found == [("tests/test_broken.py", 1, "error"), ("tests/test_core.py", 7, "failure")]
    failure = next(i for i in pytest_report.issues if i.code == "failure")
    assert failure.message.startswith("tests/test_core.py::test_double: assert 6 == 4")
    broken = next(i for i in pytest_report.issues if i.code == "error")
    assert "No module named 'no_such_module_xyz'" in broken.message
    # checks leave no trace in the work tree (no __pycache__, no .pytest_cache)
    assert not list(py_project.rglob("__pycache__"))
    assert not (py_project / ".pytest_cache").exists()


@E2E
def test_clean_project_is_ok(tmp_path: Path) -> None:
    project = _write(
        tmp_path,
        {
            "pyproject.toml": '[tool.pytest.ini_options]\ntestpaths = ["tests"]\npythonpath = ["."]\n',
            "mod.py": "def one() -> int:\n    return 1\n",
            "tests/test_mod.py": (
                "from mod import one\n\n\ndef test_one() -> None:\n    assert one() == 1\n"
            ),
        },
    )
    reports = run_checks(project, ["ruff", "mypy", "pytest"], timeout=120)
    assert [(r.tool, r.ok, r.exit_code, r.issues) for r in reports] == [
        ("ruff", True, 0, []),
        ("mypy", True, 0, []),
        ("pytest", True, 0, []),
    ]
    assert error_count(reports) == 0


@E2E
def test_pytest_with_no_tests_is_ok_with_a_warning(tmp_path: Path) -> None:
    project = _write(tmp_path, {"pyproject.toml": "[tool.pytest.ini_options]\n"})
    report = run_check(project, "pytest", timeout=120)
    assert report.exit_code == 5
    assert report.ok
    assert [(i.code, i.severity) for i in report.issues] == [("no-tests", "warning")]
    assert report.error_count == 0


@E2E
def test_mypy_text_fallback_with_real_mypy(
    py_project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(checks, "_mypy_has_json", lambda exe: False)
    report = run_check(py_project, "mypy", timeout=120)
    assert "json" not in report.command
    assert sorted((i.path, i.line, i.code, i.severity) for i in report.issues) == [
        ("pkg/core.py", 9, "return-value", "error"),
        ("tests/test_broken.py", 1, "", "note"),
        ("tests/test_broken.py", 1, "import-not-found", "error"),
    ]
    assert report.error_count == 2
    return_value = next(i for i in report.issues if i.code == "return-value")
    assert return_value.message == 'Incompatible return value type (got "int", expected "str")'


def test_missing_tool_is_an_error_in_the_report(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(checks, "find_tool", lambda name, project: None)
    report = run_check(tmp_path, "ruff")
    assert report.exit_code is None
    assert not report.ok
    assert report.error is not None and "ruff not found" in report.error
    assert [(i.code, i.severity) for i in report.issues] == [(TOOL_MISSING, "error")]
    assert error_count([report]) == 1  # fail-safe: never reads as clean


def test_timeout_kills_the_tool_and_reports(tmp_path: Path) -> None:
    _fake_tool(tmp_path, "pytest", "sleep 30 & sleep 30")
    report = run_check(tmp_path, "pytest", timeout=0.5)
    assert report.exit_code is None
    assert report.duration_s < 10
    assert [i.code for i in report.issues] == [TOOL_TIMEOUT]
    assert report.error == "pytest timed out after 0.5s"


def test_unparseable_output_is_a_tool_failure(tmp_path: Path) -> None:
    _fake_tool(
        tmp_path, "ruff", "echo 'ruff crashed: panic at foo.rs' >&2; echo 'not json'; exit 2"
    )
    report = run_check(tmp_path, "ruff")
    assert (report.exit_code, report.ok) == (2, False)
    assert [i.code for i in report.issues] == [TOOL_FAILED]
    assert "could not be parsed" in (report.error or "")
    assert "panic at foo.rs" in report.raw_tail


def test_nonzero_exit_without_issues_counts_as_one_error(tmp_path: Path) -> None:
    _fake_tool(tmp_path, "ruff", "echo '[]'; echo 'error: invalid config key' >&2; exit 2")
    report = run_check(tmp_path, "ruff")
    assert not report.ok
    assert [i.code for i in report.issues] == [TOOL_FAILED]
    assert report.issues[0].message == "ruff exited 2: error: invalid config key"


def test_secrets_in_tool_output_are_redacted(tmp_path: Path) -> None:
    secret = "sk-ant-api03-abcdefghijklmnopqrstuvwx"
    _fake_tool(tmp_path, "pytest", f"echo 'error: bad key {secret}'; exit 3")
    report = run_check(tmp_path, "pytest")
    assert secret not in report.raw_tail
    assert secret not in report.model_dump_json()


@E2E
@pytest.mark.skipif(shutil.which("npm") is None, reason="npm not installed")
def test_real_npm_test_exit_code_and_key_line(tmp_path: Path) -> None:
    project = _write(
        tmp_path,
        {
            "package.json": json.dumps(
                {"name": "t", "private": True, "scripts": {"test": "node t.js"}}
            ),
            "t.js": 'const assert = require("assert");\nassert.strictEqual(1 + 1, 3);\n',
        },
    )
    assert detect_checks(project) == ["npm test"]
    report = run_check(project, "npm test", timeout=120)
    assert (report.exit_code, report.ok) == (1, False)
    assert report.issues[0].code == TOOL_FAILED
    assert "AssertionError" in report.issues[0].message
    (project / "t.js").write_text("process.exit(0)\n", encoding="utf-8")
    assert run_check(project, "npm test", timeout=120).ok


# --- parsers on output recorded from the real tools -------------------------------------

ESLINT_JSON = json.dumps(
    [
        {
            "filePath": "/p/bad.js",
            "messages": [
                {
                    "ruleId": None,
                    "fatal": True,
                    "severity": 2,
                    "message": "Parsing error: Unexpected token ;",
                    "line": 3,
                    "column": 11,
                }
            ],
            "errorCount": 1,
        },
        {"filePath": "/p/eslint.config.mjs", "messages": [], "errorCount": 0},
        {
            "filePath": "/p/src/ok.js",
            "messages": [
                {
                    "ruleId": "no-undef",
                    "severity": 1,
                    "message": "'undefinedThing' is not defined.",
                    "line": 2,
                    "column": 17,
                },
                {
                    "ruleId": "no-unused-vars",
                    "severity": 2,
                    "message": "'x' is assigned a value but never used.",
                    "line": 1,
                    "column": 7,
                },
            ],
        },
    ]
)

TSC_TEXT = """\
src/a.ts(1,7): error TS2322: Type 'string' is not assignable to type 'number'.
src/a.ts(5,34): error TS2353: Object literal may only specify known properties, and 'b' does not exist in type '{ a: number; }'.
src/b.ts(2,3): error TS2345: Argument of type 'number' is not assignable to parameter of type 'string'.
  Type 'number' is not assignable to type 'string'.
error TS5023: Unknown compiler option 'foo'.
"""


def test_parse_eslint_json() -> None:
    issues = parse_eslint_json(ESLINT_JSON, Path("/p"))
    assert [(i.path, i.line, i.code, i.severity) for i in issues] == [
        ("bad.js", 3, "parse-error", "error"),
        ("src/ok.js", 2, "no-undef", "warning"),
        ("src/ok.js", 1, "no-unused-vars", "error"),
    ]


def test_parse_tsc_text_with_continuation_and_global_errors() -> None:
    issues = parse_tsc_text(TSC_TEXT, Path("/p"))
    assert [(i.path, i.line, i.code) for i in issues] == [
        ("src/a.ts", 1, "TS2322"),
        ("src/a.ts", 5, "TS2353"),
        ("src/b.ts", 2, "TS2345"),
        ("", None, "TS5023"),
    ]
    assert issues[2].message.endswith("Type 'number' is not assignable to type 'string'.")


def test_parse_mypy_text_lines() -> None:
    text = (
        'pkg/a.py:3: error: Name "x" is not defined  [name-defined]\n'
        'pkg/a.py:3: note: Did you mean "y"?\n'
        "pkg/b.py:10:5: error: Missing return statement  [return]\n"
        "Found 2 errors in 2 files\n"
    )
    issues = parse_mypy_text(text, Path("/p"))
    assert [(i.path, i.line, i.code, i.severity) for i in issues] == [
        ("pkg/a.py", 3, "name-defined", "error"),
        ("pkg/a.py", 3, "", "note"),
        ("pkg/b.py", 10, "return", "error"),
    ]
    assert issues[0].message == 'Name "x" is not defined'


def test_parse_junit_class_test_points_at_test_and_crash_site() -> None:
    xml = """<?xml version="1.0" encoding="utf-8"?><testsuites><testsuite name="pytest">
    <testcase classname="tests.test_ok.TestA" name="test_x" file="tests/test_ok.py" line="1">
    <failure message="KeyError: 'k'">    def test_x(self):
&gt;       helper()

tests/test_ok.py:3:
_ _ _ _

    def helper():
&gt;       raise KeyError("k")
E       KeyError: 'k'

pkg/helpers.py:6: KeyError</failure></testcase>
    <testcase classname="tests.test_ok" name="test_skip" file="tests/test_ok.py" line="9">
    <skipped message="no"/></testcase>
    </testsuite></testsuites>"""
    issues = parse_junit_xml(xml, Path("/p"))
    assert len(issues) == 1
    issue = issues[0]
    assert (issue.path, issue.line, issue.code) == ("tests/test_ok.py", 3, "failure")
    assert issue.message == (
        "tests/test_ok.py::TestA::test_x: KeyError: 'k' (raised at pkg/helpers.py:6)"
    )


# --- detection, grouping, rendering ----------------------------------------------------


def test_detect_checks(tmp_path: Path) -> None:
    assert detect_checks(tmp_path) == []
    (tmp_path / "pyproject.toml").write_text("", encoding="utf-8")
    assert detect_checks(tmp_path) == ["ruff", "mypy", "pytest"]
    (tmp_path / "package.json").write_text(
        json.dumps(
            {
                "devDependencies": {"eslint": "9"},
                "scripts": {"test": 'echo "Error: no test specified" && exit 1'},
            }
        ),
        encoding="utf-8",
    )
    (tmp_path / "tsconfig.json").write_text("{}", encoding="utf-8")
    assert detect_checks(tmp_path) == ["ruff", "mypy", "pytest", "eslint", "tsc"]
    (tmp_path / "package.json").write_text('{"scripts": {"test": "vitest"}}', encoding="utf-8")
    assert detect_checks(tmp_path)[-2:] == ["tsc", "npm test"]


def test_normalize_check_names() -> None:
    assert normalize_check(" NPM-test ") == "npm test"
    assert normalize_check("npm_test") == "npm test"
    with pytest.raises(ValueError, match="unknown check 'pylint'; choose from: ruff, mypy"):
        normalize_check("pylint")
    with pytest.raises(ValueError):
        run_checks(Path("."), ["ruff", "nope"])


def _report(tool: str, *issues: CheckIssue) -> CheckReport:
    return CheckReport(tool=tool, command=[tool], exit_code=1, issues=list(issues), ok=False)


def test_group_issues_orders_groups_and_lines() -> None:
    reports = [
        _report(
            "ruff",
            CheckIssue(tool="ruff", path="a.py", line=9, code="F401", message="unused"),
            CheckIssue(tool="ruff", path="a.py", line=2, code="E722", message="bare"),
            CheckIssue(tool="ruff", path="c.py", line=1, code="syntax-error", message="bad"),
        ),
        _report("mypy", CheckIssue(tool="mypy", path="b.py", line=4, code="arg-type")),
        _report("pytest", CheckIssue(tool="pytest", path="tests/t.py", line=3, code="failure")),
        _report("eslint", CheckIssue(tool="eslint", path="w.js", line=1, severity="warning")),
        _report("npm test", CheckIssue(tool="npm test", code=TOOL_FAILED)),
    ]
    groups = group_issues(reports)
    # syntax errors and broken tools first, then tests, types, lint, warnings-only last
    assert list(groups) == ["<npm test>", "c.py", "tests/t.py", "b.py", "a.py", "w.js"]
    assert [i.line for i in groups["a.py"]] == [2, 9]


def test_render_issues_is_bounded_and_says_what_is_hidden() -> None:
    many = [
        CheckIssue(tool="ruff", path=f"m{n:02}.py", line=k, code="F401", message="x" * 120)
        for n in range(30)
        for k in range(1, 21)
    ]
    text = render_issues([_report("ruff", *many)], max_chars=3000, max_per_file=5)
    assert len(text) <= 3000
    assert text.startswith("600 error(s) in 30 file(s) (ruff 600)")
    assert "… 15 more in this file" in text
    assert text.splitlines()[-1].startswith("(showing ")
    assert "of 600 issues" in text


def test_report_round_trips_as_json() -> None:
    report = _report("mypy", CheckIssue(tool="mypy", path="a.py", line=1, code="misc"))
    assert CheckReport.model_validate_json(report.model_dump_json()) == report


def test_tool_lookup_prefers_project_venv(tmp_path: Path) -> None:
    _fake_tool(tmp_path, "ruff", "exit 0")
    assert checks.find_tool("ruff", tmp_path) == str(tmp_path / ".venv" / "bin" / "ruff")
    assert checks.find_tool("definitely-not-a-tool-xyz", tmp_path) is None
    assert os.access(checks.find_tool("mypy", Path("/nonexistent")) or "", os.X_OK)


@E2E
def test_syntax_error_is_reported_by_every_tool_and_rendered_first(tmp_path: Path) -> None:
    project = _write(
        tmp_path,
        {
            "pyproject.toml": '[tool.pytest.ini_options]\ntestpaths = ["tests"]\npythonpath = ["."]\n',
            "mod.py": "def f(:\n    pass\n",
            "tests/test_a.py": "from mod import f\n\n\ndef test_a() -> None:\n    assert f\n",
            "style.py": "import os\n",
        },
    )
    reports = run_checks(project, ["ruff", "mypy", "pytest"], timeout=120)
    codes = {(i.tool, i.path, i.code) for r in reports for i in r.issues}
    assert ("ruff", "mod.py", "invalid-syntax") in codes
    assert ("mypy", "mod.py", "syntax") in codes
    assert ("pytest", "tests/test_a.py", "error") in codes
    assert all(not r.ok for r in reports)
    # the broken module outranks the lint finding in style.py
    assert next(iter(group_issues(reports))) == "mod.py"
    assert render_issues(reports).splitlines()[1] == "mod.py:"


def test_render_issues_fills_the_budget_from_the_first_file() -> None:
    issues = [
        CheckIssue(tool="mypy", path="big.py", line=n, code="misc", message="y" * 250)
        for n in range(1, 101)
    ]
    text = render_issues([_report("mypy", *issues)], max_chars=2000, max_per_file=100)
    lines = text.splitlines()
    assert len(text) <= 2000
    assert lines[1] == "big.py:"
    shown = sum(1 for line in lines if line.startswith("  ") and "[mypy misc]" in line)
    assert shown >= 5
    assert lines[-1] == f"(showing {shown} of 100 issues; the checks run again after your fix)"
    small = render_issues([_report("mypy", *issues[:2])])
    assert "showing" not in small
