"""The sample project fails exactly as FIXES.md says, and FIXES.md's edits make it clean.

Runs the real ruff, mypy and pytest on a scratch git copy, applying each documented fix
as one commit, the way the scripted agent does in the demo.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from autofix.checks.detect import detect_checks
from autofix.checks.issue_groups import render_issues
from autofix.checks.model import counts_by_tool, error_count
from autofix.checks.run import run_checks
from autofix.gitops import commit_all, commits_between, head, init_scratch_copy, is_clean

pytestmark = pytest.mark.e2e  # the real ruff, mypy and pytest on the sample project

SAMPLE = Path(__file__).resolve().parent.parent / "examples" / "sample_project"

BEFORE = [
    ("ruff", "inventory/models.py", 35, "E722"),
    ("ruff", "inventory/pricing.py", 3, "I001"),
    ("ruff", "inventory/report.py", 5, "F401"),
    ("mypy", "inventory/models.py", 25, "return-value"),
    ("pytest", "tests/test_pricing.py", 14, "failure"),
]


@dataclass(frozen=True)
class Fix:
    title: str
    file: str
    commit: str
    old: str
    new: str
    after: dict[str, int]


_FIX = re.compile(
    r"^## Fix \d+: (?P<title>.+?)\n.*?"
    r"^File: `(?P<file>[^`]+)`\n"
    r"^Commit: `(?P<commit>[^`]+)`\n.*?"
    r"^Old:\n```python\n(?P<old>.*?)^```\n.*?"
    r"^New:\n```python\n(?P<new>.*?)^```\n.*?"
    r"^After: ruff (?P<ruff>\d+), mypy (?P<mypy>\d+), pytest (?P<pytest>\d+)",
    re.MULTILINE | re.DOTALL,
)


def load_fixes() -> list[Fix]:
    text = (SAMPLE / "FIXES.md").read_text(encoding="utf-8")
    fixes = [
        Fix(
            title=m["title"],
            file=m["file"],
            commit=m["commit"],
            old=m["old"],
            new=m["new"],
            after={tool: int(m[tool]) for tool in ("ruff", "mypy", "pytest")},
        )
        for m in _FIX.finditer(text)
    ]
    assert len(fixes) == text.count("\n## Fix "), "a Fix section does not match the format"
    return fixes


@pytest.fixture
def scratch(tmp_path: Path) -> Path:
    init_scratch_copy(SAMPLE, tmp_path / "sample", exclude=["FIXES.md"])
    return tmp_path / "sample"


def test_sample_project_fails_exactly_as_documented(scratch: Path) -> None:
    assert detect_checks(scratch) == ["ruff", "mypy", "pytest"]
    reports = run_checks(scratch, detect_checks(scratch), timeout=120)
    found = sorted((i.tool, i.path, i.line, i.code) for r in reports for i in r.issues)
    assert found == sorted(BEFORE)
    assert counts_by_tool(reports) == {"ruff": 3, "mypy": 1, "pytest": 1}
    assert all(r.exit_code == 1 and not r.ok for r in reports)
    failure = reports[2].issues[0]
    assert failure.message.startswith(
        "tests/test_pricing.py::test_bulk_discount_starts_at_threshold: "
        "AssertionError: assert 20.0 == 18.0"
    )
    prompt = render_issues(reports)
    assert prompt.splitlines()[0] == "5 error(s) in 4 file(s) (ruff 3, mypy 1, pytest 1)"
    assert prompt.splitlines()[1] == "tests/test_pricing.py:"  # failing test first
    assert is_clean(scratch), "running the checks must not dirty the work tree"


def test_fixes_md_edits_make_every_check_pass(scratch: Path) -> None:
    fixes = load_fixes()
    assert [f.file for f in fixes] == [
        "inventory/report.py",
        "inventory/pricing.py",
        "inventory/models.py",
        "inventory/models.py",
        "inventory/pricing.py",
    ]
    start = head(scratch)
    errors = 5
    records: list[tuple[int, int, str, str]] = []  # errors and HEAD, before and after a fix
    for fix in fixes:
        path = scratch / fix.file
        source = path.read_text(encoding="utf-8")
        assert source.count(fix.old) == 1, f"{fix.title}: old text must occur exactly once"
        path.write_text(source.replace(fix.old, fix.new), encoding="utf-8")
        before_head = head(scratch)
        assert commit_all(scratch, fix.commit) is not None
        reports = run_checks(scratch, ["ruff", "mypy", "pytest"], timeout=120)
        assert counts_by_tool(reports) == fix.after, fix.title
        assert is_clean(scratch)
        records.append((errors, error_count(reports), before_head, head(scratch)))
        errors = error_count(reports)
    assert errors == 0
    assert all(r.ok for r in reports)
    # Every fix made progress: a new commit and fewer errors.
    assert all(after < before and new != old for before, after, old, new in records)
    assert [c.subject for c in commits_between(scratch, start)] == [f.commit for f in fixes]
