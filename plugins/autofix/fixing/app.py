"""The autonomous fixing loop without Airflow: plan, prepare, prompts, loop state, cache, summary.

The ``autonomous_fixing`` DAG is a thin wiring of these steps (see
``autofix.operators.fixing``)::

    plan → prepare → configure_hooks → discover_tests → check_0 → fix_1 → check_1 → … → summary

Values crossing task boundaries are plain JSON dicts of the models below, so the Airflow UI
shows them as readable XComs. Core module: no Airflow imports.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import time
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from autofix.agents.registry import coding_agents, format_class
from autofix.config import AutofixConfig, resolve
from autofix.errors import FixingError, GitError
from autofix.fixing import gitops
from autofix.fixing.checks.detect import detect_checks
from autofix.fixing.checks.model import KNOWN_CHECKS, CheckReport, counts_by_tool, error_count
from autofix.fixing.checks.report import render_issues
from autofix.fixing.checks.run import run_checks
from autofix.fixing.checks.tools import normalize_check
from autofix.fixing.circuit import DEFAULT_PATIENCE, IterationRecord, LoopState, Verdict, evaluate

HOOKS_FILE = ".pre-commit-config.yaml"
DEFAULT_SCENARIO = "sample_project"
DEFAULT_WORK_BRANCH = "autofix/fixes"

# Files whose change means the test setup may have changed: a cached answer is then stale.
TEST_SETUP_FILES: tuple[str, ...] = (
    "pyproject.toml",
    "setup.cfg",
    "setup.py",
    "tox.ini",
    "pytest.ini",
    "noxfile.py",
    "package.json",
    "tsconfig.json",
    HOOKS_FILE,
)


def slug(text: str, limit: int = 60) -> str:
    """A file-name-safe form of a run id or path."""
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", text).strip("_")[:limit] or "x"


# --------------------------------------------------------------------------- plan


class Timeouts(BaseModel):
    """Seconds per operation; an agent call past its timeout is killed (process group)."""

    model_config = ConfigDict(extra="forbid")

    configure_hooks: float = Field(default=600, gt=0)
    discover_tests: float = Field(default=300, gt=0)
    fix: float = Field(default=1800, gt=0)
    checks: float = Field(default=600, gt=0)  # each check tool separately


class ProjectPlan(BaseModel):
    """Everything one project's run needs, resolved from the run's params and the config."""

    project_path: str
    work_branch: str = DEFAULT_WORK_BRANCH
    agent: str = "sim"
    model: str | None = None
    max_iterations: int = Field(default=5, ge=1)
    checks: list[str] = Field(default_factory=list)  # empty: discovered, else detected
    timeouts: Timeouts = Field(default_factory=Timeouts)
    agent_options: dict[str, Any] = Field(default_factory=dict)
    test_config_max_age_hours: float = Field(default=24.0, ge=0)
    index: int = 0

    @field_validator("agent")
    @classmethod
    def _known_agent(cls, value: str) -> str:
        agents = coding_agents()
        if value not in agents:
            raise ValueError(f"unknown agent {value!r}; choose from: {', '.join(agents)}")
        return value

    @field_validator("checks")
    @classmethod
    def _known_checks(cls, value: list[str]) -> list[str]:
        return [normalize_check(check) for check in value]


def _project_entries(params: Mapping[str, Any], config: AutofixConfig) -> list[dict[str, Any]]:
    entries: list[dict[str, Any]] = []
    single = str(params.get("project_path") or "").strip()
    if single:
        entries.append({"project_path": single})
    for item in params.get("projects") or []:
        if isinstance(item, str) and item.strip():
            entries.append({"project_path": item.strip()})
        elif isinstance(item, Mapping) and item.get("project_path"):
            entries.append(dict(item))
        else:
            raise FixingError(
                f"projects: {item!r} is neither a path nor a mapping with project_path"
            )
    if not entries:
        entries = [{"project_path": path} for path in config.fixing.projects]
    return entries


def plan_projects(
    params: Mapping[str, Any],
    config: AutofixConfig,
    *,
    run_id: str,
    max_iterations_cap: int | None = None,
) -> list[ProjectPlan]:
    """One plan per project named by the run (``project_path``, ``projects``) or the config.

    Per-project mappings in ``projects`` may override any param, e.g.
    ``{"project_path": "/repos/api", "agent": "codex"}``. With the ``sim`` agent the
    scenario and an attempt-counter directory private to this run are filled in, so every
    run replays its scenario from the start.
    """
    entries = _project_entries(params, config)
    if not entries:
        raise FixingError(
            "no project to fix: set project_path (or projects) in the run's conf / trigger "
            "form, or fixing.projects in config/autofix.yaml"
        )
    seen: set[str] = set()
    plans = []
    for index, entry in enumerate(entries):
        merged = {**params, **entry}
        path = str(resolve(str(merged["project_path"])).resolve())
        if path in seen:
            raise FixingError(f"project {path} is listed twice; each project runs once per run")
        seen.add(path)
        agent = str(merged.get("agent") or "sim")
        max_iterations = int(merged.get("max_iterations") or 5)
        if max_iterations_cap is not None and max_iterations > max_iterations_cap:
            raise FixingError(
                f"max_iterations={max_iterations} but the DAG has {max_iterations_cap} fix "
                "tasks; raise fixing.max_unrolled_iterations in config/autofix.yaml"
            )
        options = {
            **(format_class(agent).default_options if agent in coding_agents() else {}),
            **dict(merged.get("agent_options") or {}),
        }
        if agent == "sim":
            options.setdefault("scenario", str(merged.get("scenario") or DEFAULT_SCENARIO))
            options.setdefault(
                "state_dir",
                str(resolve(config.fixing.cache_dir) / "sim-state" / slug(run_id) / str(index)),
            )
        timeouts = {
            name: merged[f"{name}_timeout"]
            for name in Timeouts.model_fields
            if merged.get(f"{name}_timeout") is not None
        }
        max_age = merged.get("test_config_max_age_hours")
        try:
            plan = ProjectPlan(
                project_path=path,
                work_branch=str(merged.get("work_branch") or DEFAULT_WORK_BRANCH),
                agent=agent,
                model=merged.get("model") or None,
                max_iterations=max_iterations,
                checks=list(merged.get("checks") or []),
                timeouts=Timeouts(**timeouts),
                agent_options=options,
                test_config_max_age_hours=(
                    config.fixing.test_config_max_age_hours if max_age is None else max_age
                ),
                index=index,
            )
        except (ValidationError, ValueError) as exc:
            raise FixingError(f"project {path}: {exc}") from exc
        plans.append(plan)
    return plans


# --------------------------------------------------------------------------- prepare


class Prepared(BaseModel):
    """A project ready for fixing: clean tree, work branch checked out."""

    plan: ProjectPlan
    base_sha: str  # HEAD when the run started: the summary lists commits since this
    branch_created: bool


def prepare(plan: ProjectPlan) -> Prepared:
    """Check the repo and tree, create or resume the work branch. Raises FixingError."""
    path = Path(plan.project_path)
    try:
        top = gitops.ensure_repo(path)
        gitops.head(top)
        if not gitops.is_clean(top):
            dirty = gitops.dirty_paths(top)
            shown = ", ".join(line.strip() for line in dirty[:5])
            more = f" and {len(dirty) - 5} more" if len(dirty) > 5 else ""
            raise FixingError(
                f"{top} has uncommitted changes ({shown}{more}); commit or stash them first: "
                "autofix works on a clean tree so that every fix is its own commit"
            )
        created = not gitops.branch_exists(top, plan.work_branch)
        base = gitops.head(top)
        gitops.create_branch(top, plan.work_branch)
    except GitError as exc:
        raise FixingError(str(exc)) from exc
    return Prepared(
        plan=plan.model_copy(update={"project_path": str(top)}),
        base_sha=base,
        branch_created=created,
    )


# --------------------------------------------------------------------------- configure_hooks


def hooks_prompt(plan: ProjectPlan, checks: Sequence[str]) -> str:
    tools = ", ".join(checks) if checks else "the project's linters, type checker and tests"
    return (
        f"Set up pre-commit hooks for the project in {plan.project_path}.\n"
        f"Create `{HOOKS_FILE}` at the repository root with hooks for: {tools}. Use local "
        "hooks (`repo: local`, `language: system`) so they run the tools already installed, "
        "and do not install anything. Commit the file with git, in one commit, with a "
        "message saying what it adds. Do not change any other file."
    )


def verify_hooks(project: str | Path) -> str | None:
    """Trust the file, not the agent. Returns the sha of a commit made for left-over changes."""
    top = Path(project)
    if not (top / HOOKS_FILE).is_file():
        raise FixingError(
            f"configure_hooks: the agent reported success but {HOOKS_FILE} does not exist in "
            f"{top}; see the agent output above for what it did instead"
        )
    if gitops.is_clean(top):
        return None
    # The agent wrote the file but did not commit: commit it so the fix loop starts clean.
    return gitops.commit_all(top, f"Add {HOOKS_FILE}")


# --------------------------------------------------------------------------- discover_tests


class TestConfig(BaseModel):
    """How a project's tests and checks run, as the agent found out (the structured answer)."""

    __test__: ClassVar[bool] = False  # not a pytest test class

    model_config = ConfigDict(extra="ignore")

    framework: str = Field(min_length=1, description="test framework, e.g. pytest, jest, vitest")
    test_command: str = Field(min_length=1, description="shell command that runs the tests")
    test_paths: list[str] = Field(default_factory=list, description="test directories or files")
    checks: list[str] = Field(
        min_length=1, description=f"check tools that apply, from: {', '.join(KNOWN_CHECKS)}"
    )

    @field_validator("checks")
    @classmethod
    def _known(cls, value: list[str]) -> list[str]:
        return [normalize_check(check) for check in value]


def discover_prompt(plan: ProjectPlan) -> str:
    fields = json.dumps(TestConfig.model_json_schema()["properties"], indent=None)
    return (
        f"Discover how the tests and checks of the project in {plan.project_path} are run. "
        "Read its configuration files; do not change any file. Answer with one JSON object "
        f"only, with these fields: {fields}. `checks` lists the tools that apply to this "
        f"project, chosen from: {', '.join(KNOWN_CHECKS)}."
    )


class CacheLookup(BaseModel):
    config: TestConfig | None
    reason: str  # hit / miss / stale / changed, for the task log


class TestConfigCache:
    """discover_tests answers per project, reused while younger than ``max_age_s``.

    Keyed by the project's real path; an entry also records a fingerprint of the test setup
    files (TEST_SETUP_FILES), and a changed fingerprint makes it stale at once.
    """

    __test__: ClassVar[bool] = False

    def __init__(self, directory: str | Path, max_age_s: float) -> None:
        self.directory = Path(directory)
        self.max_age_s = max_age_s

    def path_for(self, project: str | Path) -> Path:
        key = hashlib.sha256(str(Path(project).resolve()).encode()).hexdigest()[:16]
        return self.directory / f"test_config-{slug(Path(project).name, 30)}-{key}.json"

    @staticmethod
    def fingerprint(project: str | Path) -> str:
        digest = hashlib.sha256()
        for name in TEST_SETUP_FILES:
            path = Path(project) / name
            if path.is_file():
                digest.update(name.encode() + b"\0" + path.read_bytes() + b"\0")
        return digest.hexdigest()

    def get(self, project: str | Path, now: float | None = None) -> CacheLookup:
        if self.max_age_s <= 0:
            return CacheLookup(config=None, reason="cache disabled (max age 0)")
        path = self.path_for(project)
        try:
            entry = json.loads(path.read_text(encoding="utf-8"))
            config = TestConfig.model_validate(entry["config"])
            saved_at = float(entry["saved_at"])
        except FileNotFoundError:
            return CacheLookup(config=None, reason="miss")
        except (OSError, ValueError, KeyError, TypeError, ValidationError) as exc:
            return CacheLookup(config=None, reason=f"unreadable entry {path} ({exc}); asking again")
        age = (time.time() if now is None else now) - saved_at
        if age > self.max_age_s:
            return CacheLookup(
                config=None, reason=f"stale ({age / 3600:.1f} h > {self.max_age_s / 3600:g} h)"
            )
        if entry.get("fingerprint") != self.fingerprint(project):
            return CacheLookup(config=None, reason="test setup files changed since it was saved")
        return CacheLookup(config=config, reason=f"hit ({age:.0f} s old, {path})")

    def put(self, project: str | Path, config: TestConfig, now: float | None = None) -> Path:
        path = self.path_for(project)
        path.parent.mkdir(parents=True, exist_ok=True)
        entry = {
            "project": str(Path(project).resolve()),
            "saved_at": time.time() if now is None else now,
            "fingerprint": self.fingerprint(project),
            "config": config.model_dump(mode="json"),
        }
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps(entry, indent=2), encoding="utf-8")
        tmp.replace(path)  # atomic: parallel runs never read half an entry
        return path


def cache_for(plan: ProjectPlan, config: AutofixConfig) -> TestConfigCache:
    return TestConfigCache(resolve(config.fixing.cache_dir), plan.test_config_max_age_hours * 3600)


def choose_checks(plan: ProjectPlan, test_config: TestConfig | None) -> tuple[list[str], str]:
    """The checks to run and where they came from: the run's params, the agent, or detection."""
    if plan.checks:
        return list(plan.checks), "params"
    if test_config is not None:
        return list(test_config.checks), "discover_tests"
    detected = detect_checks(Path(plan.project_path))
    if not detected:
        raise FixingError(
            f"no checks for {plan.project_path}: none given, none discovered, none detected; "
            f"set checks (from: {', '.join(KNOWN_CHECKS)})"
        )
    return detected, "detected"


# --------------------------------------------------------------------------- iterations


class CheckSnapshot(BaseModel):
    """The checks' verdict at one point: counts, the grouped issues for the prompt, HEAD."""

    errors: int
    by_tool: dict[str, int]
    rendered: str
    head: str
    dirty: list[str] = Field(default_factory=list)
    tool_problems: list[str] = Field(default_factory=list)  # tools that gave no verdict
    duration_s: float = 0.0


def snapshot(project: str | Path, checks: Sequence[str], timeout: float) -> CheckSnapshot:
    """Run the real check tools in ``project`` and summarise them."""
    top = Path(project)
    started = time.monotonic()
    reports: list[CheckReport] = run_checks(top, checks, timeout)
    try:
        head = gitops.head(top)
        dirty = gitops.dirty_paths(top)
    except GitError as exc:
        raise FixingError(str(exc)) from exc
    return CheckSnapshot(
        errors=error_count(reports),
        by_tool=counts_by_tool(reports),
        rendered=render_issues(reports),
        head=head,
        dirty=dirty,
        tool_problems=[report.error for report in reports if report.error],
        duration_s=round(time.monotonic() - started, 3),
    )


class LoopStatus(BaseModel):
    """Where the loop stands after check ``iteration`` (0 = before any fix)."""

    iteration: int = Field(ge=0)
    max_iterations: int = Field(ge=1)
    checks: list[str]
    initial_errors: int
    initial_by_tool: dict[str, int]
    records: list[IterationRecord] = Field(default_factory=list)
    verdict: Verdict
    snapshot: CheckSnapshot

    @property
    def state(self) -> LoopState:
        return self.verdict.state


def baseline(current: CheckSnapshot, checks: Sequence[str], max_iterations: int) -> LoopStatus:
    verdict = evaluate([], initial_errors=current.errors, max_iterations=max_iterations)
    return LoopStatus(
        iteration=0,
        max_iterations=max_iterations,
        checks=list(checks),
        initial_errors=current.errors,
        initial_by_tool=current.by_tool,
        verdict=verdict,
        snapshot=current,
    )


def advance(
    previous: LoopStatus, current: CheckSnapshot, patience: int = DEFAULT_PATIENCE
) -> LoopStatus:
    """Record the fix between ``previous`` and ``current`` and ask the circuit breaker."""
    record = IterationRecord(
        iteration=previous.iteration + 1,
        errors_before=previous.snapshot.errors,
        errors_after=current.errors,
        head_before=previous.snapshot.head,
        head_after=current.head,
    )
    records = [*previous.records, record]
    verdict = evaluate(
        records,
        initial_errors=previous.initial_errors,
        max_iterations=previous.max_iterations,
        patience=patience,
    )
    return previous.model_copy(
        update={
            "iteration": record.iteration,
            "records": records,
            "verdict": verdict,
            "snapshot": current,
        }
    )


def fix_skip_reason(previous: LoopStatus | None, iteration: int) -> str | None:
    """Why fix ``iteration`` does not run (None: it runs)."""
    if previous is None:
        return f"check_{iteration - 1} has no result (it did not run)"
    if previous.iteration != iteration - 1:
        return (
            f"check_{iteration - 1} is at iteration {previous.iteration}, expected {iteration - 1}"
        )
    if previous.verdict.stop:
        return f"loop finished: {previous.verdict.state.value}: {previous.verdict.reason}"
    return None


def fix_prompt(plan: ProjectPlan, status: LoopStatus, test_config: TestConfig | None) -> str:
    """The fix request: the grouped errors, what the checks are, and the one rule (commit)."""
    iteration = status.iteration + 1
    lines = [
        f"Fix the failing checks of the project in {plan.project_path} "
        f"(git branch {plan.work_branch}). Iteration {iteration} of {status.max_iterations}.",
        "",
        f"Checks that must pass: {', '.join(status.checks)}.",
    ]
    if test_config is not None:
        lines.append(f"Tests run with: {test_config.test_command}")
    last = status.records[-1] if status.records else None
    if last is not None and not last.productive:
        lines += ["", f"Your previous iteration made no progress ({last.why_unproductive()})."]
    lines += [
        "",
        "Current problems, most urgent first:",
        status.snapshot.rendered,
        "",
        "Rules:",
        "- Fix the code, not the checks: do not disable rules, skip tests or add ignores.",
        "- Keep changes small. Fixing the first problem(s) is fine; the checks run again after you.",
        "- When done, commit your changes with git in ONE new commit whose message says what "
        "you fixed. A fix without a new commit counts as no progress.",
    ]
    return "\n".join(lines)


def commits_since(project: str | Path, sha: str) -> list[gitops.Commit]:
    try:
        return gitops.commits_between(Path(project), sha)
    except GitError:
        return []


# --------------------------------------------------------------------------- summary


class AgentCalls(BaseModel):
    calls: int = 0  # every attempt, including Airflow retries and feedback retries
    failed: int = 0
    cost_usd: float = 0.0
    by_operation: dict[str, int] = Field(default_factory=dict)


def agent_calls(interactions: Sequence[Any], project: str) -> AgentCalls:
    """Count this project's agent attempts among a run's audit interactions (by their cwd)."""
    calls = AgentCalls()
    by_operation: dict[str, int] = {}
    for item in interactions:
        if str(item.envelope.context.get("cwd") or "") != project:
            continue
        calls.calls += 1
        calls.failed += 0 if item.result.success else 1
        calls.cost_usd += item.result.cost_usd or 0.0
        by_operation[item.envelope.operation] = by_operation.get(item.envelope.operation, 0) + 1
    calls.cost_usd = round(calls.cost_usd, 6)
    calls.by_operation = by_operation
    return calls


class ProjectSummary(BaseModel):
    run_id: str
    project_path: str
    work_branch: str
    agent: str
    outcome: str  # clean | tripped | exhausted | failed
    reason: str
    errors_before: int | None
    errors_after: int | None
    by_tool_before: dict[str, int] = Field(default_factory=dict)
    by_tool_after: dict[str, int] = Field(default_factory=dict)
    iterations: int = 0
    commits: list[gitops.Commit] = Field(default_factory=list)
    agent_calls: AgentCalls = Field(default_factory=AgentCalls)
    audit: str = ""
    report: str = ""
    finished_at: datetime = Field(default_factory=lambda: datetime.now(UTC))

    @property
    def ok(self) -> bool:
        return self.outcome == LoopState.CLEAN.value


def summarize(
    *,
    run_id: str,
    prepared: Prepared,
    status: LoopStatus | None,
    failures: Sequence[str],
    calls: AgentCalls,
    audit: str,
) -> ProjectSummary:
    """One project's outcome. A failed task wins over the loop's own verdict."""
    plan = prepared.plan
    if failures:
        outcome, reason = "failed", "; ".join(failures)
    elif status is None:
        outcome, reason = "failed", "the checks never ran"
    else:
        outcome, reason = status.state.value, status.verdict.reason
        if status.state is LoopState.CONTINUE:  # a check ran but no later fix task did
            outcome = "failed"
    return ProjectSummary(
        run_id=run_id,
        project_path=plan.project_path,
        work_branch=plan.work_branch,
        agent=plan.agent,
        outcome=outcome,
        reason=reason,
        errors_before=status.initial_errors if status else None,
        errors_after=status.snapshot.errors if status else None,
        by_tool_before=status.initial_by_tool if status else {},
        by_tool_after=status.snapshot.by_tool if status else {},
        iterations=status.iteration if status else 0,
        commits=commits_since(plan.project_path, prepared.base_sha),
        agent_calls=calls,
        audit=audit,
    )


def _tools(counts: Mapping[str, int]) -> str:
    return ", ".join(f"{tool} {n}" for tool, n in counts.items()) or "-"


def render_summary(summary: ProjectSummary) -> str:
    """A short aligned table for the task log and the demo's last screen."""
    before = "-" if summary.errors_before is None else str(summary.errors_before)
    after = "-" if summary.errors_after is None else str(summary.errors_after)
    ops = ", ".join(f"{op} {n}" for op, n in summary.agent_calls.by_operation.items())
    rows = [
        ("project", summary.project_path),
        ("branch", summary.work_branch),
        ("outcome", f"{summary.outcome.upper()}: {summary.reason}"),
        ("issues before", f"{before} ({_tools(summary.by_tool_before)})"),
        ("issues after", f"{after} ({_tools(summary.by_tool_after)})"),
        ("fix iterations", str(summary.iterations)),
        ("commits", str(len(summary.commits))),
        *[("", f"{c.sha[:8]} {c.subject}") for c in summary.commits],
        (
            "agent calls",
            f"{summary.agent_calls.calls} ({summary.agent_calls.failed} failed"
            + (f"; {ops})" if ops else ")"),
        ),
        ("cost", f"${summary.agent_calls.cost_usd:.4f}"),
        ("audit log", summary.audit),
        ("report", summary.report),
    ]
    width = max(len(name) for name, _ in rows)
    return "\n".join(f"{name:<{width}}  {value}".rstrip() for name, value in rows)


def write_summary(
    summary: ProjectSummary, runs_dir: str | Path, report_text: str
) -> ProjectSummary:
    """``<runs_dir>/<run>/<project>.json`` and ``.md`` (the table plus the audit report).

    Returns the summary with ``report`` set to the Markdown file.
    """
    directory = resolve(runs_dir) / slug(summary.run_id)
    directory.mkdir(parents=True, exist_ok=True)
    digest = hashlib.sha256(summary.project_path.encode()).hexdigest()[:8]
    name = f"{slug(Path(summary.project_path).name, 40)}-{digest}"
    markdown = directory / f"{name}.md"
    summary = summary.model_copy(update={"report": str(markdown)})
    markdown.write_text(
        f"# autofix: {summary.project_path}\n\n```\n{render_summary(summary)}\n```\n\n"
        f"## Agent calls (audit report for this run)\n\n{report_text}\n",
        encoding="utf-8",
    )
    (directory / f"{name}.json").write_text(summary.model_dump_json(indent=2), encoding="utf-8")
    return summary


def load_summaries(runs_dir: str | Path) -> list[ProjectSummary]:
    """Every summary under ``runs_dir``, oldest first (the demo prints the last run's)."""
    summaries = [
        ProjectSummary.model_validate_json(path.read_text(encoding="utf-8"))
        for path in Path(runs_dir).glob("*/*.json")
    ]
    return sorted(summaries, key=lambda s: s.finished_at)
