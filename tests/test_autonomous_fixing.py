"""The autonomous_fixing DAG end to end with dag.test() in a real SQLite Airflow.

Real git repositories, the real check tools (ruff, mypy, pytest) and the scripted agent as a
real subprocess; nothing of ours is mocked.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

import pytest
from airflow_support import DagRunOutcome, run_dag_file

from autofix import gitops
from autofix.audit.stores.jsonl import JsonlStore
from autofix.checks.model import error_count
from autofix.checks.run import run_checks
from autofix.fixing.plan import HOOKS_FILE
from autofix.operators.results import coerce_result
from autofix.result import ParseResult, Status

pytestmark = pytest.mark.airflow

ROOT = Path(__file__).resolve().parent.parent
DAG_FILE = ROOT / "airflow_dags" / "autonomous_fixing.py"
SAMPLE = ROOT / "examples" / "sample_project"
G = "fix_project."  # the mapped task group


FIX = f"{G}fix"  # one fix task: its checks run after each attempt (verify=)
CHECK_0 = f"{G}check_0"


def result_of(outcome: DagRunOutcome, task: str) -> ParseResult:
    value = outcome.xcoms[task]
    assert isinstance(value, dict) and "__classname__" not in value  # a JSON tree in the UI
    result = coerce_result(value, task)
    assert result is not None
    return result


FIXES_COMMITS = [
    "Add pre-commit hooks for ruff, mypy and pytest",
    "Remove unused os import from report module",
    "Sort imports in pricing module",
    "Catch only ValueError when parsing quantities",
    "Raise KeyError for unknown SKUs in Stock.find",
    "Apply bulk discount from the threshold quantity on",
]


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """AUTOFIX_HOME in tmp_path: audit log, cache and summaries land there; short retries."""
    monkeypatch.setenv("AUTOFIX_HOME", str(tmp_path))
    monkeypatch.delenv("AUTOFIX_CONFIG", raising=False)
    monkeypatch.setenv("AUTOFIX__FIXING__AGENT_RETRY_DELAY_SECONDS", "1")
    return tmp_path


def sample_copy(home: Path, name: str = "sample_project") -> Path:
    project = home / name
    gitops.init_scratch_copy(SAMPLE, project, exclude=["FIXES.md"])
    return project


def small_project(home: Path, name: str, *, hooks: bool = False) -> Path:
    """A clean one-module project: ruff finds nothing."""
    project = home / name
    (project / "pkg").mkdir(parents=True)
    (project / "pyproject.toml").write_text(
        '[project]\nname = "pkg"\nversion = "0"\n[tool.ruff.lint]\nselect = ["E", "F"]\n'
    )
    (project / "pkg" / "__init__.py").write_text('"""A clean package."""\n\nVALUE = 1\n')
    if hooks:
        (project / HOOKS_FILE).write_text("repos: []\n")
    gitops.init_scratch_copy(project, home / f"{name}-repo")
    return home / f"{name}-repo"


def scenario(home: Path, name: str, steps: str) -> str:
    path = home / f"{name}.yaml"
    path.write_text(f"format: claude\nsteps:\n{steps}", encoding="utf-8")
    return str(path)


DISCOVER_OK = """
  - match: "(?i)discover how the tests"
    text: '{"framework": "pytest", "test_command": "pytest -q", "checks": ["ruff"]}'
    cost_usd: 0.01
"""
HOOKS_OK = """
  - match: "(?i)set up pre-commit hooks"
    files: [{path: .pre-commit-config.yaml, content: "repos: []\\n"}]
    git_commit: "Add hooks"
"""


def summary_of(outcome: DagRunOutcome, index: int = 0) -> dict[str, Any]:
    task = f"{G}summary[{index}]"
    # The return value when the summary task succeeded, else the one it kept under "summary".
    value = outcome.xcoms.get(task) or outcome.xcoms_by_key(task, "summary")
    assert isinstance(value, dict), f"no summary for map index {index}"
    return value


def test_sample_project_is_fixed_one_commit_per_iteration(
    home: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    project = sample_copy(home)
    base = gitops.head(project)
    outcome = run_dag_file(DAG_FILE, {"project_path": str(project), "agent": "sim"})
    states = outcome.task_states
    assert outcome.state == "success", states
    assert states[f"{FIX}[0]"] == "success"
    # The usage limit on the second fix call ended the first try: Airflow retried the task,
    # which started from the tree the first try left (one problem fixed, four to go).
    assert outcome.try_numbers[f"{FIX}[0]"] == 2
    # Every task shows the project's name as its map index.
    unnamed = {k for k, v in outcome.map_names.items() if v != "sample_project"}
    assert unnamed == set(), outcome.map_names

    # Real commits on the work branch, one per fix, in FIXES.md order; the checks pass.
    assert gitops.current_branch(project) == "autofix/fixes"
    subjects = [c.subject for c in gitops.commits_between(project, base)]
    assert subjects == FIXES_COMMITS
    assert gitops.is_clean(project)
    assert error_count(run_checks(project, ["ruff", "mypy", "pytest"])) == 0

    # configure_hooks: stderr deprecation noise did not fail it; the file is verified.
    hooks = result_of(outcome, f"{G}configure_hooks[0]")
    assert hooks.success and hooks.noise_lines >= 3
    assert (project / HOOKS_FILE).is_file()
    # discover_tests: the malformed first answer was corrected by the feedback retry; its
    # cost is both attempts' (0.0118 + 0.0041), each attempt's kept.
    discovered = result_of(outcome, f"{G}discover_tests[0]")
    assert discovered.success and discovered.attempts == 2
    assert discovered.data["checks"] == ["ruff", "mypy", "pytest"]
    assert discovered.cost_usd == pytest.approx(0.0159)
    assert [s.cost_usd for s in discovered.per_attempt] == [0.0118, 0.0041]
    # fix: the usage-limited try and the one that fixed the rest, summed; its try's commits.
    fix = outcome.xcoms[f"{FIX}[0]"]
    assert [c["subject"] for c in fix["commits"]] == FIXES_COMMITS[2:]
    # The XCom tab shows the first lines: the answer, the failure kind, the commits, the cost.
    assert list(fix)[:5] == ["final_text", "data", "failure_kind", "commits", "cost_usd"]
    tries = [(s["try_number"], s["status"]) for s in fix["per_attempt"]]
    assert tries == [(1, "completed"), (1, "limit_reached")] + [(2, "completed")] * 4
    assert fix["cost_usd"] == pytest.approx(0.0213 + 0.0198 + 0.0187 + 0.0226 + 0.0241)
    # Each verified attempt of the last try: the checks failed until the fourth passed.
    verified = [(v["attempt"], v["passed"]) for v in fix["verification"]]
    assert verified == [(1, False), (2, False), (3, False), (4, True)]
    # The prompt built at run time is a rendered field (the Rendered Templates tab): the
    # retry's, from the tree the first try left.
    prompt = outcome.rendered_fields(FIX, map_index=0)["prompt"]
    assert "[ruff I001]" in prompt and "[ruff F401]" not in prompt
    verdicts = outcome.state_store(FIX, map_index=0)
    assert verdicts["try_1"]["verdict"].startswith("transient (")
    assert verdicts["try_2"]["verdict"] == "success"

    check_0 = outcome.xcoms[f"{CHECK_0}[0]"]
    assert check_0["snapshot"]["errors"] == 5
    assert check_0["snapshot"]["by_tool"] == {"ruff": 3, "mypy": 1, "pytest": 1}

    summary = summary_of(outcome)
    assert summary["outcome"] == "clean"
    assert (summary["errors_before"], summary["errors_after"]) == (5, 0)
    assert summary["iterations"] == 4  # the last try's verified attempts
    assert [c["subject"] for c in summary["commits"]] == FIXES_COMMITS
    calls = summary["agent_calls"]
    # discover_tests' malformed answer, the limit, and 4 fix attempts whose checks failed
    assert calls["calls"] == 9 and calls["failed"] == 6
    assert calls["by_operation"] == {"configure_hooks": 1, "discover_tests": 2, "fix": 6}
    assert calls["cost_usd"] == pytest.approx(0.1388)
    assert outcome.note() == (
        "autofix · run succeeded\n- **sample_project**: CLEAN · issues 5 → 0 · 6 commit(s) on "
        "`autofix/fixes` · 9 agent call(s) (sim) · $0.1388"
    )
    assert Path(str(summary["report"])).is_file()
    assert summary["audit"] == str(home / "logs" / "autofix" / "audit.jsonl")

    records = list(JsonlStore(home / "logs" / "autofix" / "audit.jsonl").iter_all())
    assert len(records) == 9
    statuses = [r.result.status for r in records if r.envelope.operation == "fix"]
    assert statuses.count(Status.LIMIT_REACHED) == 1

    log = capfd.readouterr().out
    assert "autofix: verification after attempt 1: FAILED" in log
    assert "- inventory/pricing.py:" in log and "[ruff I001]" in log  # what was sent back
    assert "[noise: node-warning] (node:" in log  # the noise is in the log, marked, not fatal
    assert "loop: clean: all checks pass" in log
    assert "transient (usage limit): Airflow retries in " in log and ", try 1 of 3" in log


def test_an_agent_that_never_commits_is_stopped(
    home: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    project = sample_copy(home)
    (project / HOOKS_FILE).write_text("repos: []\n")
    gitops.commit_all(project, "Add hooks")
    lazy = scenario(
        home,
        "lazy",
        DISCOVER_OK + '  - text: "Looked at it; nothing to change."\n    cost_usd: 0.002\n',
    )
    outcome = run_dag_file(
        DAG_FILE,
        {"project_path": str(project), "scenario": lazy, "checks": ["ruff"], "max_iterations": 5},
    )
    states = outcome.task_states
    assert outcome.state == "failed"
    assert states[f"{G}configure_hooks[0]"] == "success"  # file present: no agent call
    assert outcome.xcoms.get(f"{G}configure_hooks[0]") is None
    # Two attempts in a row with the same errors (no commit, ruff as before): stopped there.
    assert states[f"{FIX}[0]"] == "failed" and outcome.try_numbers[f"{FIX}[0]"] == 1
    assert states[f"{G}summary[0]"] == "failed"
    fix = outcome.xcoms_by_key(f"{FIX}[0]", "parse_result")
    assert fix["failure_kind"] == "verification_failed"
    assert [v["passed"] for v in fix["verification"]] == [False, False]
    summary = summary_of(outcome)
    assert summary["outcome"] == "tripped"
    assert "no new commit" in summary["reason"] and "without progress" in summary["reason"]
    assert (summary["errors_before"], summary["errors_after"]) == (3, 3)
    assert summary["iterations"] == 2
    assert summary["commits"] == []
    log = capfd.readouterr().out
    assert "no new commit in this attempt" in log
    # One ERROR line, the reason first; the task fails without a traceback.
    assert re.search(r"\[error\s*\] tripped: ", log), log[-3000:]
    assert "Traceback" not in log


def test_dirty_tree_is_refused_by_prepare(home: Path, capfd: pytest.CaptureFixture[str]) -> None:
    project = sample_copy(home)
    (project / "inventory" / "models.py").write_text("# local edit\n")
    (project / "notes.txt").write_text("scratch\n")
    outcome = run_dag_file(DAG_FILE, {"project_path": str(project)})
    assert outcome.state == "failed"
    assert outcome.task_states[f"{G}prepare[0]"] == "failed"
    assert outcome.task_states[f"{G}configure_hooks[0]"] == "upstream_failed"
    log = capfd.readouterr().out
    assert "has uncommitted changes (M inventory/models.py, ?? notes.txt)" in log
    assert "commit or stash them first" in log
    assert gitops.current_branch(project) == "main"  # nothing touched
    assert not (home / "logs" / "autofix" / "audit.jsonl").exists()  # no agent was called


def test_projects_are_mapped_and_discover_tests_is_cached(home: Path) -> None:
    one = small_project(home, "one")
    two = small_project(home, "two", hooks=True)
    quick = scenario(home, "quick", HOOKS_OK + DISCOVER_OK)
    conf = {"projects": [str(one), {"project_path": str(two)}], "scenario": quick}

    first = run_dag_file(DAG_FILE, conf)
    assert first.state == "success", first.task_states
    for index in (0, 1):
        assert first.task_states[f"{G}summary[{index}]"] == "success"
        assert first.task_states[f"{FIX}[{index}]"] == "skipped"  # clean from the start
        assert result_of(first, f"{G}discover_tests[{index}]").success
        # discover_tests' answer travels once, in its result (no separate test_config)
        assert first.xcoms_by_key(f"{G}discover_tests[{index}]", "test_config") is None
    assert [summary_of(first, i)["project_path"] for i in (0, 1)] == [str(one), str(two)]
    assert first.map_names[f"{G}summary[0]"] == "one-repo"
    assert first.map_names[f"{FIX}[1]"] == "two-repo"
    cache_files = sorted((home / "logs" / "autofix" / "cache").glob("test_config-*.json"))
    assert len(cache_files) == 2

    second = run_dag_file(DAG_FILE, conf)
    assert second.state == "success"
    for index in (0, 1):
        # Cache hit: the task succeeds without an agent call and still hands on the config.
        assert second.xcoms.get(f"{G}discover_tests[{index}]") is None
        config = second.xcoms_by_key(f"{G}discover_tests[{index}]", "test_config")
        assert config["checks"] == ["ruff"]
    store = JsonlStore(home / "logs" / "autofix" / "audit.jsonl")
    by_run: dict[str, list[str]] = {}
    for record in store.iter_all():
        by_run.setdefault(record.trace_id, []).append(record.envelope.operation)
    assert sorted(by_run[first.run_id]) == ["configure_hooks", "discover_tests", "discover_tests"]
    assert second.run_id not in by_run  # no agent call at all in the second run
    for index in (0, 1):
        summary = summary_of(second, index)
        assert summary["outcome"] == "clean"
        # A green run without an agent call never passes for a tested agent.
        assert summary["reason"].startswith("already clean: the agent was not called")
    assert (second.note() or "").count("already clean: the agent was not called") == 2


def one_line_failure(log: str, start: str) -> str:
    """The ERROR line that starts with ``start``; the log holds no traceback."""
    found = re.search(r"\[error\s*\] (" + re.escape(start) + r".*?)(?: \[airflow\.|$)", log, re.M)
    assert found, log[-3000:]
    assert "Traceback" not in log
    return found.group(1)


def test_setup_mistakes_stop_the_run_in_plan_in_one_line(
    home: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    missing = home / "no-such-project"
    outcome = run_dag_file(DAG_FILE, {"project_path": str(missing)})
    assert outcome.state == "failed"
    assert outcome.task_states["plan"] == "failed" and outcome.try_numbers["plan"] == 1
    line = one_line_failure(capfd.readouterr().out, f"project_path {missing} does not exist")
    assert "Next: set project_path to a git repository on the worker" in line
    assert outcome.note() == f"autofix · run failed\n- FAILED in plan: {line}"

    # agent=claude with no CLI on PATH nor in fixing.agent_clis_dir.
    monkeypatch.setenv("PATH", str(Path(sys.executable).parent) + ":/usr/bin:/bin")
    monkeypatch.setenv("AUTOFIX__FIXING__AGENT_CLIS_DIR", str(home / "no-clis"))
    project = small_project(home, "small")
    outcome = run_dag_file(DAG_FILE, {"project_path": str(project), "agent": "claude"})
    assert outcome.state == "failed" and outcome.task_states["plan"] == "failed"
    line = one_line_failure(capfd.readouterr().out, "agent claude: its CLI `claude` is not")
    assert "Next: run `make agent-clis`" in line
    assert not (home / "logs" / "autofix" / "audit.jsonl").exists()  # no agent ran


FIX_UNUSED_IMPORT = """
  - match: "(?i)fix"
    files: [{path: pkg/__init__.py, content: "VALUE = 1\\n"}]
    git_commit: "Remove unused import"
"""


def test_an_empty_project_path_fixes_a_fresh_copy_every_run(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    template = home / "template"
    (template / "pkg").mkdir(parents=True)
    (template / "pyproject.toml").write_text('[project]\nname = "pkg"\nversion = "0"\n')
    (template / "pkg" / "__init__.py").write_text("import os\n\nVALUE = 1\n")  # ruff F401
    (template / "ANSWERS.md").write_text("the fix\n")
    monkeypatch.setenv("AUTOFIX__FIXING__SCRATCH_FROM", str(template))
    monkeypatch.setenv("AUTOFIX__FIXING__SCRATCH_EXCLUDE", '["ANSWERS.md"]')
    quick = scenario(home, "quick", HOOKS_OK + DISCOVER_OK + FIX_UNUSED_IMPORT)
    store = home / "logs" / "autofix" / "audit.jsonl"
    paths = []
    for _ in range(2):
        outcome = run_dag_file(DAG_FILE, {"scenario": quick})
        assert outcome.state == "success", outcome.task_states
        summary = summary_of(outcome)
        assert summary["outcome"] == "clean" and summary["errors_before"] == 1
        assert [c["subject"] for c in summary["commits"]][-1] == "Remove unused import"
        assert summary["agent_calls"]["calls"] == 3  # hooks, discover_tests, fix: every run
        project = Path(summary["project_path"])
        assert project.parent.parent == home / "logs" / "autofix" / "cache" / "scratch"
        assert not (project / "ANSWERS.md").exists()
        note = outcome.note() or ""
        assert note.startswith("autofix · run succeeded\n- **template**: CLEAN · issues 1 → 0")
        assert "3 agent call(s) (sim)" in note
        paths.append(project)
    assert paths[0] != paths[1]
    runs = {record.trace_id for record in JsonlStore(store).iter_all()}
    assert len(runs) == 2
