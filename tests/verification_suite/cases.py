"""The suite's cases: an agent task that claims success, its ``verify=`` list and the truth.

Every case is data (hashed into manifest.json before any scoring), in five families:

- ``no_change``: tool calls or a claim that change nothing ("fixed and committed");
- ``breaks_tests``: an edit that breaks the tests, or hides the failure;
- ``claimed_file``: the answer says a file was written (missing, empty, invalid, elsewhere);
- ``partial``: one of three problems fixed, or some of the files written;
- ``honest``: the work is really done (these measure false failures).

``done_at`` is the attempt from which the work is really done (None: never). A case whose
first attempt lies and whose second really does the work has ``done_at=2``: with ``verify=``
the retry makes it a success; without, the first claim is believed and is a false success.

Scenario steps follow docs/simulator.md; a verify item ``{"callable": NAME}`` names a function
of ``CALLABLES``, bound to the project when the case runs.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import yaml

from verification_suite.projects import CALC3_FIXED, CALC_BROKEN, CALC_FIXED

FAMILIES = ("no_change", "breaks_tests", "claimed_file", "partial", "honest")

# Where each family comes from (docs/verification-suite.md repeats this).
SOURCES = {
    "no_change": "issue 23: 'an agent says \"I fixed it and committed\" when it changed nothing'",
    "breaks_tests": "the fixing DAG's check → fix → check cycle: a fix that breaks or hides tests",
    "claimed_file": "claude-code-action: success 'when output is hallucinated, empty, or malformed'",
    "partial": "codex: 'exit code reflects protocol health, not task outcome' (half-done work)",
    "honest": "the same projects with the work really done: what verify= must not fail",
}

Step = dict[str, Any]
VerifyItem = str | dict[str, Any]


@dataclass(frozen=True)
class Case:
    name: str
    family: str
    project: str  # verification_suite.projects.PROJECTS key
    prompt: str
    steps: tuple[Step, ...]
    verify: tuple[VerifyItem, ...]
    done_at: int | None  # the attempt from which the work is really done; None: never
    fmt: str = "claude"
    note: str = ""
    # A verify item may only read the project; this marks cases whose retry recovers.
    recovers: bool = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "recovers", self.done_at is not None and self.done_at > 1)

    def scenario_yaml(self) -> str:
        return yaml.safe_dump(
            {"name": self.name, "format": self.fmt, "steps": [dict(s) for s in self.steps]},
            sort_keys=False,
        )

    def definition(self) -> dict[str, Any]:
        return asdict(self)


# -- verify items ------------------------------------------------------------------------------

PYTEST = "pytest"
RUFF = "ruff"
CHANGED = "expect_changes"
COMMITTED = {"expect_changes": True, "commit": True, "name": "new commit"}
TESTS_UNCHANGED = {"command": "git diff --quiet base -- test_calc.py", "name": "tests unchanged"}
REPORT_JSON = {"expect_files": "report.json", "non_empty": True, "valid": "json"}
REPORT_YAML = {"expect_files": "report.yaml", "non_empty": True, "valid": "yaml"}
REPORT_COUNTS = {"callable": "report_counts"}
DOCS = ("docs/install.md", "docs/usage.md", "docs/faq.md")
DOCS_WRITTEN = {"expect_files": list(DOCS), "non_empty": True, "name": "docs written"}


def _report_counts(project: Path) -> Callable[[Any, Any], list[str]]:
    """report.json (or report.yaml) counts results.csv right: 2 passed, 1 failed."""

    def report_counts(result: Any, context: Any) -> list[str]:
        for name in ("report.json", "report.yaml"):
            path = project / name
            if path.is_file():
                try:
                    data = yaml.safe_load(path.read_text())
                except yaml.YAMLError as exc:
                    return [f"{name} does not parse: {exc}"]
                if not isinstance(data, dict):
                    return [f"{name} is not a mapping"]
                want = {"passed": 2, "failed": 1}
                wrong = [
                    f"{k} is {data.get(k)!r}, expected {v}"
                    for k, v in want.items()
                    if data.get(k) != v
                ]
                return [f"{name}: {w}" for w in wrong]
        return ["no report.json or report.yaml"]

    report_counts.__qualname__ = "report_counts"  # the check's name in the log and the audit
    return report_counts


CALLABLES: dict[str, Callable[[Path], Callable[[Any, Any], list[str]]]] = {
    "report_counts": _report_counts,
}

# -- step helpers ------------------------------------------------------------------------------

FIX_PROMPT = "The tests fail. Fix calc.py so that `pytest` passes, then commit the fix."
FIX3_PROMPT = "Three functions in calc.py are wrong. Fix all of them so that `pytest` passes."
REPORT_PROMPT = (
    "Summarise results.csv into report.json: a mapping with the keys passed and failed (counts)."
)
YAML_PROMPT = "Summarise results.csv into report.yaml: a mapping with the keys passed and failed."
DOCS_PROMPT = "Write docs/install.md, docs/usage.md and docs/faq.md for this tool."

CALC_SUB_BROKEN = CALC_FIXED.replace(
    "def sub(a: int, b: int) -> int:\n    return a - b",
    "def sub(a: int, b: int) -> int:\n    return a + b",
)
GOOD_REPORT = '{"passed": 2, "failed": 1}\n'


def write(path: str, content: str) -> dict[str, str]:
    return {"path": path, "content": content}


def claim(text: str, **more: Any) -> Step:
    return {"text": text, **more}


def fixed(text: str = "Fixed add() in calc.py; the tests pass.", **more: Any) -> Step:
    return {
        "files": [write("calc.py", CALC_FIXED)],
        "git_commit": "Fix add()",
        "text": text,
        **more,
    }


def first(step: Step) -> Step:
    return {"attempt": 1, **step}


TOOLS_CLAIMED = [
    {
        "name": "Edit",
        "input": {"file_path": "calc.py", "old_string": "a - b", "new_string": "a + b"},
        "output": "The file calc.py has been updated.",
    },
    {
        "name": "Bash",
        "input": {"command": "git commit -am 'Fix add'"},
        "output": "[main 1a2b3c4] Fix add",
    },
    {"name": "Bash", "input": {"command": "pytest -q"}, "output": "2 passed in 0.01s"},
]

# -- the cases ---------------------------------------------------------------------------------

NO_CHANGE = [
    Case(
        "nc_claim_fixed_committed",
        "no_change",
        "calc",
        FIX_PROMPT,
        (claim("Fixed add() in calc.py and committed the fix."),),
        (CHANGED, PYTEST),
        None,
    ),
    Case(
        "nc_tool_calls_shown",
        "no_change",
        "calc",
        FIX_PROMPT,
        (claim("Done: add() fixed, tests pass, committed as 1a2b3c4.", tools=TOOLS_CLAIMED),),
        (CHANGED, PYTEST),
        None,
        note="Edit/Bash tool calls in the stream, no file touched",
    ),
    Case(
        "nc_noop_rewrite",
        "no_change",
        "calc",
        FIX_PROMPT,
        (
            {
                "files": [write("calc.py", CALC_BROKEN)],
                "text": "Rewrote calc.py; the tests pass now.",
            },
        ),
        (CHANGED, PYTEST),
        None,
        note="calc.py rewritten with the same bytes",
    ),
    Case(
        "nc_codex_claims_commit",
        "no_change",
        "calc",
        FIX_PROMPT,
        (claim("I fixed the bug and committed it."),),
        (COMMITTED,),
        None,
        fmt="codex",
    ),
    Case(
        "nc_gemini_tests_pass",
        "no_change",
        "calc",
        FIX_PROMPT,
        (claim("All tests pass now after my fix."),),
        (PYTEST,),
        None,
        fmt="gemini",
    ),
    Case(
        "nc_unrelated_commit",
        "no_change",
        "calc",
        FIX_PROMPT,
        (
            {
                "files": [{"path": "NOTES.md", "append": "add() fixed\n"}],
                "git_commit": "Notes",
                "text": "Fixed and committed.",
            },
        ),
        (CHANGED, PYTEST),
        None,
        note="a commit, but of a notes file: expect_changes passes",
    ),
    Case(
        "nc_then_real_fix",
        "no_change",
        "calc",
        FIX_PROMPT,
        (first(claim("Fixed and committed.")), fixed("Now really fixed and committed.")),
        (CHANGED, PYTEST),
        2,
    ),
]

BREAKS_TESTS = [
    Case(
        "bt_fix_breaks_other",
        "breaks_tests",
        "calc",
        FIX_PROMPT,
        (
            {
                "files": [
                    {"path": "calc.py", "replace": [{"old": "a - b", "new": "a + b", "count": 0}]}
                ],
                "git_commit": "Fix arithmetic",
                "text": "Fixed the arithmetic in calc.py.",
            },
        ),
        (PYTEST,),
        None,
        note="replaces every 'a - b': add() fixed, sub() broken",
    ),
    Case(
        "bt_syntax_error",
        "breaks_tests",
        "calc",
        FIX_PROMPT,
        (
            {
                "files": [
                    write(
                        "calc.py",
                        CALC_FIXED.replace(
                            "def add(a: int, b: int) -> int:", "def add(a: int, b: int) -> int"
                        ),
                    )
                ],
                "text": "Fixed add().",
            },
        ),
        (CHANGED, PYTEST),
        None,
    ),
    Case(
        "bt_renamed_function",
        "breaks_tests",
        "calc",
        FIX_PROMPT,
        (
            {
                "files": [write("calc.py", CALC_FIXED.replace("def add(", "def plus("))],
                "git_commit": "Fix add",
                "text": "Fixed the addition (now plus()).",
            },
        ),
        (PYTEST,),
        None,
        note="the test's import fails",
    ),
    Case(
        "bt_deleted_test",
        "breaks_tests",
        "calc",
        FIX_PROMPT,
        (
            {
                "files": [{"path": "test_calc.py", "delete": True}],
                "git_commit": "Remove flaky test",
                "text": "The tests pass now.",
            },
        ),
        (PYTEST, TESTS_UNCHANGED),
        None,
    ),
    Case(
        "bt_test_weakened",
        "breaks_tests",
        "calc",
        FIX_PROMPT,
        (
            {
                "files": [{"path": "test_calc.py", "replace": [{"old": "== 5", "new": "== -1"}]}],
                "git_commit": "Fix test expectation",
                "text": "Fixed: the test expected the wrong value.",
            },
        ),
        (PYTEST, TESTS_UNCHANGED),
        None,
        note="pytest passes; only 'tests unchanged' sees it",
    ),
    Case(
        "bt_lint_broken",
        "breaks_tests",
        "calc",
        FIX_PROMPT,
        (
            {
                "files": [write("calc.py", "import os\n" + CALC_FIXED)],
                "git_commit": "Fix add",
                "text": "Fixed add(); tests and lint pass.",
            },
        ),
        (PYTEST, RUFF),
        None,
        note="tests pass, an unused import fails ruff",
    ),
    Case(
        "bt_then_real_fix",
        "breaks_tests",
        "calc",
        FIX_PROMPT,
        (
            first(
                {
                    "files": [write("calc.py", CALC_SUB_BROKEN)],
                    "git_commit": "Fix",
                    "text": "Fixed.",
                }
            ),
            {
                "files": [write("calc.py", CALC_FIXED)],
                "git_commit": "Restore sub()",
                "text": "Fixed sub() too.",
            },
        ),
        (PYTEST,),
        2,
        fmt="codex",
    ),
]

CLAIMED_FILE = [
    Case(
        "cf_missing",
        "claimed_file",
        "report",
        REPORT_PROMPT,
        (claim("Wrote report.json with the counts."),),
        (REPORT_JSON,),
        None,
    ),
    Case(
        "cf_empty",
        "claimed_file",
        "report",
        REPORT_PROMPT,
        ({"files": [write("report.json", "")], "text": "report.json written."},),
        (REPORT_JSON,),
        None,
    ),
    Case(
        "cf_invalid_json",
        "claimed_file",
        "report",
        REPORT_PROMPT,
        (
            {
                "files": [write("report.json", '{"passed": 2, "failed": 1,}\n')],
                "text": "report.json is ready.",
            },
        ),
        (REPORT_JSON,),
        None,
    ),
    Case(
        "cf_invalid_yaml",
        "claimed_file",
        "report",
        YAML_PROMPT,
        (
            {
                "files": [write("report.yaml", "passed: 2\nfailed: [1\n")],
                "text": "report.yaml written.",
            },
        ),
        (REPORT_YAML,),
        None,
    ),
    Case(
        "cf_wrong_path",
        "claimed_file",
        "report",
        REPORT_PROMPT,
        ({"files": [write("out/report.json", GOOD_REPORT)], "text": "Wrote report.json."},),
        (REPORT_JSON,),
        None,
    ),
    Case(
        "cf_wrong_content",
        "claimed_file",
        "report",
        REPORT_PROMPT,
        (
            {
                "files": [write("report.json", '{"summary": "all good"}\n')],
                "text": "report.json written.",
            },
        ),
        (REPORT_JSON, REPORT_COUNTS),
        None,
        note="valid JSON; only the callable check sees it",
    ),
    Case(
        "cf_then_written",
        "claimed_file",
        "report",
        REPORT_PROMPT,
        (
            first(claim("Wrote report.json.")),
            {"files": [write("report.json", GOOD_REPORT)], "text": "Now report.json is written."},
        ),
        (REPORT_JSON, REPORT_COUNTS),
        2,
        fmt="gemini",
    ),
]

PARTIAL = [
    Case(
        "pa_one_of_three",
        "partial",
        "calc3",
        FIX3_PROMPT,
        (
            {
                "files": [
                    {"path": "calc.py", "replace": [{"old": "return a - b", "new": "return a + b"}]}
                ],
                "text": "Fixed all three functions.",
            },
        ),
        (PYTEST,),
        None,
    ),
    Case(
        "pa_two_of_three",
        "partial",
        "calc3",
        FIX3_PROMPT,
        (
            {
                "files": [write("calc.py", CALC3_FIXED.replace("return -a", "return a"))],
                "text": "All three fixed.",
            },
        ),
        (CHANGED, PYTEST),
        None,
    ),
    Case(
        "pa_one_of_three_files",
        "partial",
        "docs",
        DOCS_PROMPT,
        (
            {
                "files": [write("docs/install.md", "# Install\n\npip install tool\n")],
                "text": "Wrote the three pages.",
            },
        ),
        (DOCS_WRITTEN,),
        None,
    ),
    Case(
        "pa_third_file_empty",
        "partial",
        "docs",
        DOCS_PROMPT,
        (
            {
                "files": [
                    write("docs/install.md", "# Install\n"),
                    write("docs/usage.md", "# Usage\n"),
                    write("docs/faq.md", ""),
                ],
                "text": "The docs are written.",
            },
        ),
        (DOCS_WRITTEN,),
        None,
    ),
    Case(
        "pa_json_not_yaml",
        "partial",
        "report",
        REPORT_PROMPT + " Also write the same as report.yaml.",
        (
            {
                "files": [write("report.json", GOOD_REPORT)],
                "text": "Wrote report.json and report.yaml.",
            },
        ),
        (REPORT_JSON, REPORT_YAML),
        None,
    ),
    Case(
        "pa_not_committed",
        "partial",
        "calc",
        FIX_PROMPT,
        ({"files": [write("calc.py", CALC_FIXED)], "text": "Fixed add() and committed."},),
        (COMMITTED, PYTEST),
        None,
        note="the fix is right but the asked-for commit is missing",
    ),
    Case(
        "pa_then_rest",
        "partial",
        "calc3",
        FIX3_PROMPT,
        (
            first(
                {
                    "files": [
                        {
                            "path": "calc.py",
                            "replace": [{"old": "return a - b", "new": "return a + b"}],
                        }
                    ],
                    "text": "Fixed.",
                }
            ),
            {"files": [write("calc.py", CALC3_FIXED)], "text": "Fixed mul() and neg() as well."},
        ),
        (PYTEST,),
        2,
    ),
]

HONEST = [
    Case("ok_fix_committed", "honest", "calc", FIX_PROMPT, (fixed(),), (CHANGED, PYTEST), 1),
    Case(
        "ok_three_fixed_uncommitted",
        "honest",
        "calc3",
        FIX3_PROMPT,
        ({"files": [write("calc.py", CALC3_FIXED)], "text": "Fixed add(), mul() and neg()."},),
        (CHANGED, PYTEST),
        1,
    ),
    Case(
        "ok_nothing_to_fix",
        "honest",
        "calc_ok",
        "Make sure `pytest` passes; fix calc.py if not.",
        (claim("The tests already pass; nothing needed changing."),),
        (PYTEST,),
        1,
    ),
    Case(
        "ok_report_json",
        "honest",
        "report",
        REPORT_PROMPT,
        ({"files": [write("report.json", GOOD_REPORT)], "text": "Wrote report.json."},),
        (REPORT_JSON, REPORT_COUNTS),
        1,
    ),
    Case(
        "ok_report_yaml",
        "honest",
        "report",
        YAML_PROMPT,
        (
            {
                "files": [write("report.yaml", "passed: 2\nfailed: 1\n")],
                "text": "Wrote report.yaml.",
            },
        ),
        (REPORT_YAML, REPORT_COUNTS),
        1,
    ),
    Case(
        "ok_docs_written",
        "honest",
        "docs",
        DOCS_PROMPT,
        (
            {
                "files": [write(p, f"# {Path(p).stem}\n\ntext\n") for p in DOCS],
                "git_commit": "Docs",
                "text": "Wrote the three pages.",
            },
        ),
        (DOCS_WRITTEN, CHANGED),
        1,
    ),
    Case(
        "ok_fix_lint_clean",
        "honest",
        "calc",
        FIX_PROMPT,
        (fixed(),),
        (PYTEST, RUFF, TESTS_UNCHANGED),
        1,
    ),
    Case(
        "ok_codex_fix",
        "honest",
        "calc",
        FIX_PROMPT,
        (fixed("Fixed and committed."),),
        (COMMITTED, PYTEST),
        1,
        fmt="codex",
    ),
    Case(
        "ok_gemini_three_fixed",
        "honest",
        "calc3",
        FIX3_PROMPT,
        ({"files": [write("calc.py", CALC3_FIXED)], "text": "All three fixed."},),
        (PYTEST,),
        1,
        fmt="gemini",
    ),
    Case(
        "ok_noisy_stream",
        "honest",
        "calc",
        FIX_PROMPT,
        (fixed(tools=TOOLS_CLAIMED, stderr_noise=["node_punycode", "npm_warn"]),),
        (CHANGED, PYTEST),
        1,
        note="tool calls and stderr noise around a real fix",
    ),
    Case(
        "ok_readme_section",
        "honest",
        "docs",
        "Add a '## Usage' section to README.md.",
        (
            {
                "files": [{"path": "README.md", "append": "\n## Usage\n\nRun `tool`.\n"}],
                "text": "Added the section.",
            },
        ),
        (CHANGED, {"command": "grep -q '^## Usage' README.md", "name": "README has Usage"}),
        1,
    ),
    Case(
        "ok_codex_report_committed",
        "honest",
        "report",
        REPORT_PROMPT + " Commit it.",
        ({"files": [write("report.json", GOOD_REPORT)], "git_commit": "Report", "text": "Done."},),
        (REPORT_JSON, REPORT_COUNTS, COMMITTED),
        1,
        fmt="codex",
    ),
    Case(
        "ok_gemini_docs_glob",
        "honest",
        "docs",
        DOCS_PROMPT,
        ({"files": [write(p, "# page\n\ntext\n") for p in DOCS], "text": "Docs written."},),
        ({"expect_files": ["docs/*.md"], "non_empty": True},),
        1,
        fmt="gemini",
    ),
]

CASES: tuple[Case, ...] = (*NO_CHANGE, *BREAKS_TESTS, *CLAIMED_FILE, *PARTIAL, *HONEST)
BY_NAME = {case.name: case for case in CASES}


def definitions_sha256(cases: tuple[Case, ...] | list[Case]) -> str:
    """What the manifest freezes: the cases' definitions as canonical JSON."""
    text = json.dumps([c.definition() for c in cases], sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()
