"""autofix.fixing without Airflow: plans, prepare on real git repos, the cache, loop state, prompts."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from autofix import gitops
from autofix.config import AutofixConfig, load_config
from autofix.errors import FixingError
from autofix.fixing.loop import (
    Baseline,
    CheckSnapshot,
    LoopState,
    fix_checks,
    outcome_of,
    snapshot,
)
from autofix.fixing.plan import ProjectPlan, plan_projects
from autofix.fixing.prepare import prepare, verify_hooks
from autofix.fixing.prompts import fix_prompt
from autofix.fixing.summary import (
    AgentCalls,
    ProjectSummary,
    load_summaries,
    render_summary,
    write_summary,
)
from autofix.fixing.testconfig import TestConfig, TestConfigCache
from autofix.result import FailureKind, ParseResult, Status
from autofix.verification import CheckKind, CheckOutcome, Verification

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "examples" / "sample_project"


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    src = tmp_path / "src"
    (src / "pkg").mkdir(parents=True)
    (src / "pyproject.toml").write_text('[project]\nname = "pkg"\n')
    (src / "pkg" / "__init__.py").write_text("VALUE = 1\n")
    gitops.init_scratch_copy(src, tmp_path / "repo")
    return tmp_path / "repo"


def test_plan_merges_params_projects_and_config(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("AUTOFIX_HOME", str(tmp_path))
    config = AutofixConfig()
    params = {
        "project_path": "a",
        "projects": ["/abs/b", {"project_path": "c", "agent": "codex", "max_iterations": 2}],
        "agent": "sim",
        "fix_timeout": 60,
    }
    plans = plan_projects(params, config, run_id="manual__2025-01-01T00:00:00+00:00")
    assert [p.project_path for p in plans] == [str(tmp_path / "a"), "/abs/b", str(tmp_path / "c")]
    assert [p.agent for p in plans] == ["sim", "sim", "codex"]
    assert plans[2].max_iterations == 2 and plans[0].max_iterations == 5
    assert plans[0].timeouts.fix == 60 and plans[0].timeouts.checks == 600
    # sim: the bundled scenario and a counter dir private to this run and project
    assert plans[0].agent_options["scenario"] == "sample_project"
    assert plans[0].agent_options["state_dir"] != plans[1].agent_options["state_dir"]
    assert "manual__2025-01-01T00_00_00_00_00" in plans[0].agent_options["state_dir"]
    # real agents get the permissions needed to edit and commit without a prompt
    assert plans[2].agent_options == {"sandbox": "workspace-write", "full_auto": True}

    config = load_config(environ={"AUTOFIX__FIXING__PROJECTS": '["/repos/x"]'})
    assert [p.project_path for p in plan_projects({}, config, run_id="r")] == ["/repos/x"]


def test_each_project_gets_a_name_for_the_run(tmp_path: Path) -> None:
    """The map index shows it: the folder's name, unique in the run, or the entry's own."""
    params = {
        "projects": ["/repos/api", "/old/api", {"project_path": "/repos/web", "name": "site"}]
    }
    plans = plan_projects(params, AutofixConfig(), run_id="r")
    assert [p.name for p in plans] == ["api", "api (2)", "site"]


def test_plan_rejects_nothing_to_do_duplicates_and_bad_values() -> None:
    config = AutofixConfig()
    with pytest.raises(FixingError, match="no project to fix"):
        plan_projects({"project_path": ""}, config, run_id="r")
    with pytest.raises(FixingError, match="listed twice"):
        plan_projects({"project_path": "/x", "projects": ["/x"]}, config, run_id="r")
    with pytest.raises(FixingError, match="unknown agent 'gpt'"):
        plan_projects({"project_path": "/x", "agent": "gpt"}, config, run_id="r")
    with pytest.raises(FixingError, match="unknown check 'pylint'"):
        plan_projects({"project_path": "/x", "checks": ["pylint"]}, config, run_id="r")
    with pytest.raises(FixingError, match="max_iterations"):
        plan_projects({"project_path": "/x", "max_iterations": 31}, config, run_id="r")


def test_prepare_creates_then_resumes_the_work_branch(repo: Path) -> None:
    plan = ProjectPlan(project_path=str(repo / "pkg"), work_branch="autofix/w")
    first = prepare(plan)
    assert first.branch_created and first.plan.project_path == str(repo)  # the repo top level
    assert gitops.current_branch(repo) == "autofix/w"
    (repo / "pkg" / "__init__.py").write_text("VALUE = 2\n")
    gitops.commit_all(repo, "change")
    again = prepare(plan)
    assert not again.branch_created and again.base_sha == gitops.head(repo)


def test_prepare_refuses_dirty_trees_and_non_repos(repo: Path, tmp_path: Path) -> None:
    (repo / "pkg" / "__init__.py").write_text("VALUE = 3\n")
    (repo / "new.txt").write_text("x\n")
    with pytest.raises(FixingError) as caught:
        prepare(ProjectPlan(project_path=str(repo)))
    message = str(caught.value)
    assert "has uncommitted changes (M pkg/__init__.py, ?? new.txt)" in message
    assert "commit or stash them first" in message
    assert gitops.current_branch(repo) == "main"
    plain = tmp_path / "plain"
    plain.mkdir()
    (plain / "app.py").write_text("x = 1\n")
    prepared = prepare(ProjectPlan(project_path=str(plain)))  # a folder becomes a repository
    assert prepared.repo_created and prepared.branch_created
    assert gitops.current_branch(plain) == "autofix/fixes" and gitops.is_clean(plain)
    with pytest.raises(FixingError, match=r"^project_path \S+ does not exist: set project_path"):
        prepare(ProjectPlan(project_path=str(tmp_path / "missing")))


def test_verify_hooks_trusts_the_file_not_the_agent(repo: Path) -> None:
    with pytest.raises(FixingError, match=r"\.pre-commit-config\.yaml does not exist"):
        verify_hooks(repo)
    (repo / ".pre-commit-config.yaml").write_text("repos: []\n")
    sha = verify_hooks(repo)  # left uncommitted by the agent: committed so the loop starts clean
    assert sha == gitops.head(repo) and gitops.is_clean(repo)
    assert verify_hooks(repo) is None


def test_test_config_cache_hit_stale_changed_and_disabled(repo: Path, tmp_path: Path) -> None:
    cache = TestConfigCache(tmp_path / "cache", max_age_s=3600)
    config = TestConfig(framework="pytest", test_command="pytest -q", checks=["ruff", "pytest"])
    assert cache.get(repo).reason == "miss"
    path = cache.put(repo, config, now=1000.0)
    assert json.loads(path.read_text())["project"] == str(repo.resolve())
    hit = cache.get(repo, now=1000.0 + 60)
    assert hit.config == config and hit.reason.startswith("hit")
    assert cache.get(repo, now=1000.0 + 3601).reason.startswith("stale")
    (repo / "pyproject.toml").write_text('[project]\nname = "pkg"\nversion = "2"\n')
    assert cache.get(repo, now=1000.0 + 60).reason == "test setup files changed since it was saved"
    assert TestConfigCache(tmp_path / "cache", 0).get(repo).reason.startswith("cache disabled")
    path.write_text("{not json")
    assert cache.get(repo).config is None


def test_test_config_schema_rejects_unknown_checks() -> None:
    with pytest.raises(ValueError, match="unknown check 'pylint'"):
        TestConfig(framework="pytest", test_command="pytest", checks=["pylint"])
    assert TestConfig(framework="x", test_command="y", checks=["npm-test"]).checks == ["npm test"]


def snap(errors: int, head: str) -> CheckSnapshot:
    return CheckSnapshot(errors=errors, by_tool={"ruff": errors}, rendered="", head=head)


def fixed(*attempts: tuple[int, bool]) -> ParseResult:
    """The fix task's result after attempts of (ruff errors left, new commit)."""
    history = [
        Verification(
            attempt=n,
            passed=errors == 0 and commit,
            checks=[
                CheckOutcome(
                    name="ruff",
                    kind=CheckKind.TOOL,
                    passed=errors == 0,
                    errors=[f"a.py:1: [ruff F401] unused {errors}"] if errors else [],
                    error_count=errors,
                ),
                CheckOutcome(
                    name="new commit",
                    kind=CheckKind.EXPECT_CHANGES,
                    passed=commit,
                    errors=[] if commit else ["no new commit in this attempt (HEAD is still a)"],
                ),
            ],
        )
        for n, (errors, commit) in enumerate(attempts, start=1)
    ]
    passed = history[-1].passed
    return ParseResult(
        success=passed,
        status=Status.COMPLETED if passed else Status.FAILED,
        operation="fix",
        failure_kind=None if passed else FailureKind.VERIFICATION_FAILED,
        verification=history,
    )


def test_loop_trips_after_two_unproductive_attempts() -> None:
    base = Baseline(checks=["ruff"], max_iterations=5, snapshot=snap(3, "a"))
    names = [check.name for check in fix_checks(base, timeout=60)]
    assert names == ["ruff", "new commit"]  # every tool, and a commit of each attempt
    outcome = outcome_of(base, fixed((2, True), (2, False), (2, False)))
    assert outcome.state is LoopState.TRIPPED and outcome.iterations == 3
    assert "no new commit" in outcome.reason and "without progress" in outcome.reason
    assert (outcome.errors_after, outcome.by_tool_after) == (2, {"ruff": 2})
    assert outcome_of(base, None).state is LoopState.FAILED  # the fix did not finish


def test_loop_state_clean_and_exhausted() -> None:
    assert (
        outcome_of(Baseline(checks=["ruff"], max_iterations=5, snapshot=snap(0, "a")), None).state
        is LoopState.CLEAN
    )
    base = Baseline(checks=["ruff"], max_iterations=1, snapshot=snap(2, "a"))
    assert outcome_of(base, fixed((1, True))).state is LoopState.EXHAUSTED
    assert outcome_of(base, fixed((0, True))).state is LoopState.CLEAN


def test_fix_prompt_carries_errors_and_rules(tmp_path: Path) -> None:
    project = tmp_path / "sample"
    gitops.init_scratch_copy(SAMPLE, project, exclude=["FIXES.md"])
    plan = ProjectPlan(project_path=str(project))
    base = Baseline(checks=["ruff"], max_iterations=5, snapshot=snapshot(project, ["ruff"], 120))
    prompt = fix_prompt(plan, base, None)
    assert "[ruff F401]" in prompt
    assert "ONE new commit" in prompt and "Checks that must pass: ruff." in prompt
    prompt = fix_prompt(
        plan, base, TestConfig(framework="p", test_command="pytest -q", checks=["ruff"])
    )
    assert "Tests run with: pytest -q" in prompt


def test_summary_is_written_rendered_and_read_back(tmp_path: Path) -> None:
    summary = ProjectSummary(
        run_id="manual__x",
        project_path="/p/sample",
        work_branch="autofix/fixes",
        agent="sim",
        outcome="clean",
        reason="all checks pass",
        errors_before=5,
        errors_after=0,
        by_tool_before={"ruff": 3, "mypy": 1, "pytest": 1},
        commits=[gitops.Commit(sha="a" * 40, subject="Fix it")],
        agent_calls=AgentCalls(calls=3, failed=1, cost_usd=0.05, by_operation={"fix": 3}),
        audit="/p/audit.jsonl",
    )
    written = write_summary(summary, tmp_path / "runs", "report body")
    assert Path(written.report).read_text().count("report body") == 1
    table = render_summary(written)
    assert "CLEAN: all checks pass" in table and "5 (ruff 3, mypy 1, pytest 1)" in table
    assert "aaaaaaaa Fix it" in table and "3 (1 failed; fix 3)" in table
    assert load_summaries(tmp_path / "runs") == [written]


def test_a_retired_fixing_key_still_loads(tmp_path: Path) -> None:
    # fixing.max_unrolled_iterations sized the unrolled fix/check tasks the DAG no longer has.
    path = tmp_path / "autofix.yaml"
    path.write_text("fixing:\n  max_unrolled_iterations: 8\n  push: branch\n")
    assert load_config(path).fixing.push == "branch"
    with pytest.raises(ValueError, match="max_unrolled_iteration"):
        AutofixConfig.model_validate({"fixing": {"max_unrolled_iteration": 8}})  # a typo fails
