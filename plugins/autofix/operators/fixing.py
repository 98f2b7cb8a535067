"""Airflow glue for the ``autonomous_fixing`` DAG: one task per step of ``autofix.fixing``.

Every task after ``plan`` runs inside a task group mapped over the run's projects, so each
reads its siblings' XComs at its own map index; each fix/check pair sits in its own group
``iteration_<n>`` so the Graph view folds the unrolled loop. Every task names its project in
``context["project_name"]``, which the group's ``map_index_template`` shows instead of the index.
Agent calls are AIWrapperOperator subclasses: each is its own task with its own log, retries and
ParseResult, and builds its prompt when its templates are rendered, so the Rendered Templates tab
shows it while the task runs.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from airflow.sdk import BaseOperator, TriggerRule
from airflow.sdk.exceptions import AirflowFailException, AirflowSkipException

from autofix.audit.report import build_report
from autofix.audit.report import render as render_report
from autofix.audit.stores import build_store
from autofix.config import AutofixConfig, resolve
from autofix.errors import FixingError, GitError
from autofix.fixing.loop import (
    LoopStatus,
    advance,
    baseline,
    commits_since,
    fix_skip_reason,
    snapshot,
)
from autofix.fixing.plan import HOOKS_FILE, ProjectPlan, plan_projects
from autofix.fixing.prepare import Prepared, prepare, verify_hooks
from autofix.fixing.prompts import discover_prompt, fix_prompt, hooks_prompt
from autofix.fixing.summary import agent_calls, render_summary, summarize, write_summary
from autofix.fixing.testconfig import TestConfig, cache_for, choose_checks
from autofix.operators.results import FAILED_RESULT_KEY, coerce_result, pull_here
from autofix.operators.wrapper import AIWrapperOperator, load_task_config, to_xcom
from autofix.redact import redact
from autofix.result import ParseResult

if TYPE_CHECKING:
    from airflow.sdk import Context
    from jinja2 import Environment

TEST_CONFIG_KEY = "test_config"
SUMMARY_KEY = "summary"  # only when the summary task fails (then it has no return value)
PROJECT_NAME = "project_name"  # the context key the map_index_template renders
MAP_INDEX_TEMPLATE = "{{ " + PROJECT_NAME + " }}"
_ITERATION = re.compile(r"(?:fix|check)_(\d+)")
_ITERATION_GROUP = re.compile(r"iteration_\d+")


def iteration_group(n: int) -> str:
    """The task group holding fix_<n> and check_<n>."""
    return f"iteration_{n}"


def sibling_id(task_id: str, name: str) -> str:
    """The id of step ``name`` (prepare, check_0, fix_<n>, check_<n>, summary, ...) of the
    project that ``task_id`` belongs to: fix/check pairs after check_0 live in their
    iteration's group, the other steps directly in the project's group."""
    group, _, _ = task_id.rpartition(".")
    parent, _, last = group.rpartition(".")
    if _ITERATION_GROUP.fullmatch(last):  # this task is inside an iteration's group
        group = parent
    found = _ITERATION.fullmatch(name)
    if found and int(found.group(1)) > 0:
        name = f"{iteration_group(int(found.group(1)))}.{name}"
    return f"{group}.{name}" if group else name


def name_project(context: Context, plan: ProjectPlan) -> None:
    """Name this task's map index after its project (the group's ``map_index_template``)."""
    context[PROJECT_NAME] = plan.name or Path(plan.project_path).name  # type: ignore[literal-required]


def pull_prepared(context: Context, task_id: str) -> Prepared:
    """prepare's result for this task's project; names the project for the map index."""
    raw = pull_here(context, sibling_id(task_id, "prepare"))
    if raw is None:
        raise AirflowFailException("prepare has no result for this project; see its log")
    prepared = Prepared.model_validate(raw)
    name_project(context, prepared.plan)
    return prepared


def pull_status(context: Context, task_id: str, iteration: int) -> LoopStatus | None:
    raw = pull_here(context, sibling_id(task_id, f"check_{iteration}"))
    return None if raw is None else LoopStatus.model_validate(raw)


def pull_test_config(context: Context, task_id: str) -> TestConfig | None:
    """discover_tests' answer: in its ParseResult when the agent was asked, else the cached
    config it pushed alone (each is pushed once)."""
    discover = sibling_id(task_id, "discover_tests")
    raw = pull_here(context, discover, key=TEST_CONFIG_KEY)
    if raw is None:
        result = coerce_result(pull_here(context, discover), discover)
        raw = result.data if result is not None and result.success else None
    return None if raw is None else TestConfig.model_validate(raw)


def _fail(operation: str, exc: Exception) -> AirflowFailException:
    return AirflowFailException(f"[{operation}] {exc}")


class PlanProjectsOperator(BaseOperator):
    """Resolve the run's projects (params, else ``fixing.projects``) into the mapped list."""

    ui_color = "#eeeeee"

    def __init__(self, *, max_iterations_cap: int, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.max_iterations_cap = max_iterations_cap

    def execute(self, context: Context) -> list[dict[str, Any]]:
        config = load_task_config(self.task_id)
        try:
            plans = plan_projects(
                dict(context["params"]),
                config,
                run_id=str(context["run_id"]),
                max_iterations_cap=self.max_iterations_cap,
            )
        except FixingError as exc:
            raise _fail(self.task_id, exc) from exc
        for plan in plans:
            self.log.info(
                "project %d: %s (agent %s, branch %s, max_iterations %d, checks %s)",
                plan.index,
                plan.project_path,
                plan.agent,
                plan.work_branch,
                plan.max_iterations,
                ", ".join(plan.checks) or "discovered",
            )
        return [plan.model_dump(mode="json") for plan in plans]


class PrepareOperator(BaseOperator):
    """The path is a git repo, the tree is clean, the work branch is checked out."""

    template_fields: Sequence[str] = ("plan",)
    ui_color = "#eeeeee"

    def __init__(self, *, plan: Any, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.plan = plan  # a mapped argument: one plan dict per map index

    def execute(self, context: Context) -> dict[str, Any]:
        try:
            plan = ProjectPlan.model_validate(self.plan)
            name_project(context, plan)
            prepared = prepare(plan)
        except (FixingError, ValueError) as exc:
            raise _fail("prepare", exc) from exc
        how = "created" if prepared.branch_created else "resumed"
        self.log.info(
            "%s: clean, branch %s %s at %s",
            prepared.plan.project_path,
            prepared.plan.work_branch,
            how,
            prepared.base_sha[:12],
        )
        return prepared.model_dump(mode="json")


@dataclass(frozen=True)
class AgentCall:
    """What to ask this project's agent; ``prompt`` None: no call is needed, for ``reason``."""

    prepared: Prepared
    prompt: str | None
    timeout: float
    reason: str = ""


class _ProjectAgentOperator(AIWrapperOperator):
    """An agent call on this map index's project; agent, cwd and options come from prepare.

    ``agent_call`` decides the prompt when the templates are rendered (before ``execute``), so
    the Rendered Templates tab shows it during the run; being built after Jinja ran, error text
    quoted in it is never read as a template."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("prompt", "")
        super().__init__(**kwargs)
        self._call: AgentCall | None = None

    def agent_call(self, context: Context) -> AgentCall:
        raise NotImplementedError

    def planned_call(self, context: Context) -> AgentCall:
        if self._call is None:
            self._call = self.agent_call(context)
        return self._call

    def render_template_fields(
        self, context: Context, jinja_env: Environment | None = None
    ) -> None:
        super().render_template_fields(context, jinja_env)
        self._call = None  # a new try plans anew (dag.test() reuses the operator)
        try:
            call = self.planned_call(context)
        except Exception as exc:  # execute asks again and fails with the real reason
            self.log.warning("the prompt could not be built yet: %s", redact(str(exc)))
            return
        self.prompt = call.prompt or f"(no agent call: {call.reason})"

    def run_for(self, context: Context, call: AgentCall) -> ParseResult:
        """Run the agent on this project with the planned prompt."""
        plan = call.prepared.plan
        spec = replace(
            self._spec(context),
            agent=plan.agent,
            model=plan.model,
            cwd=plan.project_path,
            agent_options=dict(plan.agent_options),
            prompt=call.prompt or "",
            timeout=call.timeout,
        )
        return self.run_spec(context, spec)


class ConfigureHooksOperator(_ProjectAgentOperator):
    """Ask the agent for pre-commit hooks; success means the file exists, whatever it says."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("operation", "configure_hooks")
        super().__init__(**kwargs)

    def agent_call(self, context: Context) -> AgentCall:
        prepared = pull_prepared(context, self.task_id)
        plan = prepared.plan
        timeout = plan.timeouts.configure_hooks
        project = Path(plan.project_path)
        if (project / HOOKS_FILE).is_file():
            return AgentCall(prepared, None, timeout, f"{HOOKS_FILE} already exists in {project}")
        checks = plan.checks or choose_checks(plan, None)[0]
        return AgentCall(prepared, hooks_prompt(plan, checks), timeout)

    def execute(self, context: Context) -> dict[str, Any] | None:  # type: ignore[override]
        call = self.planned_call(context)
        if call.prompt is None:
            self.log.info("%s: no agent call", redact(call.reason))
            return None
        result = self.run_for(context, call)
        project = Path(call.prepared.plan.project_path)
        try:
            sha = verify_hooks(project)
        except (FixingError, GitError) as exc:
            raise _fail(self.operation, exc) from exc
        if sha:
            self.log.warning("the agent left %s uncommitted; committed it as %s", HOOKS_FILE, sha)
        self.log.info("verified: %s exists", project / HOOKS_FILE)
        return to_xcom(result)


class DiscoverTestsOperator(_ProjectAgentOperator):
    """Ask how the tests run (TestConfig schema, retried with feedback); cached per project."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("output_schema", TestConfig)
        kwargs.setdefault("operation", "discover_tests")
        super().__init__(**kwargs)

    def agent_call(self, context: Context) -> AgentCall:
        prepared = pull_prepared(context, self.task_id)
        plan = prepared.plan
        lookup = cache_for(plan, load_task_config(self.operation, self.config_path)).get(
            plan.project_path
        )
        timeout = plan.timeouts.discover_tests
        if lookup.config is not None:
            return AgentCall(prepared, None, timeout, f"test config cache {lookup.reason}")
        return AgentCall(prepared, discover_prompt(plan), timeout, f"cache: {lookup.reason}")

    def execute(self, context: Context) -> dict[str, Any] | None:  # type: ignore[override]
        call = self.planned_call(context)
        plan = call.prepared.plan
        cache = cache_for(plan, load_task_config(self.operation, self.config_path))
        ti = context["ti"]
        if call.prompt is None:
            lookup = cache.get(plan.project_path)
            if lookup.config is not None:
                self.log.info("%s: no agent call", redact(call.reason))
                ti.xcom_push(key=TEST_CONFIG_KEY, value=lookup.config.model_dump(mode="json"))
                return None
            call = replace(call, prompt=discover_prompt(plan))  # the entry went stale meanwhile
        self.log.info("test config %s", redact(call.reason))
        result = self.run_for(context, call)
        try:
            test_config = TestConfig.model_validate(result.data)
        except ValueError as exc:  # fail-safe: a "success" without a valid answer is not one
            raise _fail(self.operation, exc) from exc
        path = cache.put(plan.project_path, test_config)
        self.log.info("test config %s cached at %s", test_config.model_dump(), path)
        return to_xcom(result)  # its data is the test config: pushed once


class CheckOperator(BaseOperator):
    """Run the real check tools; check_0 is the baseline, check_N records fix_N's effect."""

    ui_color = "#e6f5d0"

    def __init__(self, *, iteration: int, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.iteration = iteration

    def execute(self, context: Context) -> dict[str, Any]:
        prepared = pull_prepared(context, self.task_id)
        plan = prepared.plan
        previous: LoopStatus | None = None
        try:
            if self.iteration == 0:
                checks, source = choose_checks(plan, pull_test_config(context, self.task_id))
                self.log.info("checks (from %s): %s", source, ", ".join(checks))
            else:
                previous = pull_status(context, self.task_id, self.iteration - 1)
                if previous is None:
                    raise FixingError(f"check_{self.iteration - 1} has no result")
                checks = previous.checks
            current = snapshot(plan.project_path, checks, plan.timeouts.checks)
        except FixingError as exc:
            raise _fail(self.task_id, exc) from exc
        self.log.info("::group::%d error(s): %s", current.errors, current.by_tool)
        self.log.info("%s", current.rendered)
        self.log.info("::endgroup::")
        for problem in current.tool_problems:
            self.log.warning("check tool problem: %s", problem)
        if previous is None:
            status = baseline(current, checks, plan.max_iterations)
        else:
            status = advance(previous, current)
            record = status.records[-1]
            self.log.info(
                "fix_%d: %s, errors %d → %d%s",
                record.iteration,
                f"new HEAD {record.head_after[:12]}" if record.new_commit else "NO new commit",
                record.errors_before,
                record.errors_after,
                "" if record.productive else f" (no progress: {record.why_unproductive()})",
            )
            if current.dirty and not record.new_commit:
                self.log.warning("uncommitted changes left by the agent: %s", current.dirty[:10])
        self.log.info("loop: %s: %s", status.state.value, status.verdict.reason)
        return status.model_dump(mode="json")


class FixOperator(_ProjectAgentOperator):
    """One fix iteration: the agent gets the grouped errors and must commit. Skips when done."""

    def __init__(self, *, iteration: int, **kwargs: Any) -> None:
        kwargs.setdefault("operation", "fix")
        super().__init__(**kwargs)
        self.iteration = iteration

    def agent_call(self, context: Context) -> AgentCall:
        prepared = pull_prepared(context, self.task_id)
        plan = prepared.plan
        previous = pull_status(context, self.task_id, self.iteration - 1)
        reason = fix_skip_reason(previous, self.iteration)
        if reason is not None or previous is None:
            return AgentCall(prepared, None, plan.timeouts.fix, str(reason))
        prompt = fix_prompt(plan, previous, pull_test_config(context, self.task_id))
        return AgentCall(prepared, prompt, plan.timeouts.fix)

    def execute(self, context: Context) -> dict[str, Any]:
        call = self.planned_call(context)
        if call.prompt is None:
            raise AirflowSkipException(f"fix_{self.iteration} not needed: {call.reason}")
        head = pull_status(context, self.task_id, self.iteration - 1)
        assert head is not None  # agent_call planned a prompt only with check_<n-1>'s status
        result = self.run_for(context, call)
        commits = commits_since(call.prepared.plan.project_path, head.snapshot.head)
        if commits:
            for commit in commits:
                self.log.info("new commit %s %s", commit.sha[:12], redact(commit.subject))
        else:
            self.log.warning(
                "fix_%d made no new commit (HEAD still %s): counts as no progress",
                self.iteration,
                head.snapshot.head[:12],
            )
        # The commits belong to this fix's record; readers of the ParseResult ignore the key.
        return {**to_xcom(result), "commits": [c.model_dump(mode="json") for c in commits]}


class SummaryOperator(BaseOperator):
    """Issues before/after, commits, agent calls and cost; fails unless the project is clean."""

    ui_color = "#fff3b0"

    def __init__(self, *, iterations: int, **kwargs: Any) -> None:
        kwargs.setdefault("trigger_rule", TriggerRule.ALL_DONE)
        super().__init__(**kwargs)
        self.iterations = iterations

    def _failed_result(self, context: Context, name: str) -> ParseResult | None:
        task_id = sibling_id(self.task_id, name)
        return coerce_result(pull_here(context, task_id, FAILED_RESULT_KEY), task_id)

    def _failures(self, context: Context, last: LoopStatus | None) -> list[str]:
        if last is None:
            found = [
                result.error_message
                for name in ("configure_hooks", "discover_tests")
                if (result := self._failed_result(context, name)) is not None
            ]
            return found or ["configure_hooks, discover_tests or check_0 failed; see their logs"]
        if last.verdict.stop:
            return []
        step = last.iteration + 1
        failed = self._failed_result(context, f"fix_{step}")
        if failed is not None:
            return [failed.error_message]
        return [f"fix_{step} or check_{step} did not finish; see their logs"]

    def execute(self, context: Context) -> dict[str, Any]:
        raw = pull_here(context, sibling_id(self.task_id, "prepare"))
        if raw is None:
            raise AirflowFailException(
                "[summary] prepare did not finish (see its log); nothing changed"
            )
        prepared = Prepared.model_validate(raw)
        name_project(context, prepared.plan)
        last: LoopStatus | None = None
        for n in range(self.iterations + 1):  # stop at the first check that did not run
            status = pull_status(context, self.task_id, n)
            if status is None:
                break
            last = status
        config = load_task_config(self.task_id)
        run_id = str(context["run_id"])
        store = build_store(config.audit)
        project = prepared.plan.project_path
        interactions = [
            item
            for item in store.by_trace(run_id)
            if str(item.envelope.context.get("cwd") or "") == project
        ]
        report = build_report(interactions, store=store.describe(), since=None)
        summary = summarize(
            run_id=run_id,
            prepared=prepared,
            status=last,
            failures=self._failures(context, last),
            calls=agent_calls(interactions, project),
            audit=audit_location(config),
        )
        summary = write_summary(summary, config.fixing.runs_dir, render_report(report, "markdown"))
        self.log.info("summary:\n%s", render_summary(summary))
        value = summary.model_dump(mode="json")
        if not summary.ok:  # a failed task pushes no return value: keep the summary readable
            context["ti"].xcom_push(key=SUMMARY_KEY, value=value)
            raise AirflowFailException(
                f"[summary] {project}: {summary.outcome}: {summary.reason} (report: {summary.report})"
            )
        return value


def audit_location(config: AutofixConfig) -> str:
    """Where this run's audit records are, as ``autofix report --store`` accepts it."""
    if config.audit.store == "s3":
        return f"s3://{config.audit.bucket}/{config.audit.prefix}"
    if config.audit.store == "memory":
        return "memory (not kept)"
    return str(resolve(config.audit.path))
