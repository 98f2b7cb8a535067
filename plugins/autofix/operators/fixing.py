"""Airflow glue for the ``autonomous_fixing`` DAG: one task per step of ``autofix.fixing``.

Every task after ``plan`` runs inside a task group mapped over the run's projects, so each
reads its siblings' XComs at its own map index. Agent calls are AIWrapperOperator subclasses:
each is its own task with its own log, retries and ParseResult, and only fills in the prompt
and the project's settings at run time.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from airflow.sdk import BaseOperator, TriggerRule
from airflow.sdk.exceptions import AirflowFailException, AirflowSkipException

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
from autofix.operators.wrapper import AIWrapperOperator, load_task_config
from autofix.redact import redact
from autofix.result import ParseResult

if TYPE_CHECKING:
    from airflow.sdk import Context

TEST_CONFIG_KEY = "test_config"
SUMMARY_KEY = "summary"


def sibling_id(task_id: str, name: str) -> str:
    """The id of task ``name`` in the same task group as ``task_id``."""
    group, _, _ = task_id.rpartition(".")
    return f"{group}.{name}" if group else name


def pull_prepared(context: Context, task_id: str) -> Prepared:
    raw = pull_here(context, sibling_id(task_id, "prepare"))
    if raw is None:
        raise AirflowFailException("prepare has no result for this project; see its log")
    return Prepared.model_validate(raw)


def pull_status(context: Context, task_id: str, iteration: int) -> LoopStatus | None:
    raw = pull_here(context, sibling_id(task_id, f"check_{iteration}"))
    return None if raw is None else LoopStatus.model_validate(raw)


def pull_test_config(context: Context, task_id: str) -> TestConfig | None:
    raw = pull_here(context, sibling_id(task_id, "discover_tests"), key=TEST_CONFIG_KEY)
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
            prepared = prepare(ProjectPlan.model_validate(self.plan))
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


class _ProjectAgentOperator(AIWrapperOperator):
    """An agent call on this map index's project; agent, cwd and options come from prepare."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("prompt", "")
        super().__init__(**kwargs)

    def run_for(
        self, context: Context, plan: ProjectPlan, prompt: str, timeout: float
    ) -> ParseResult:
        """Run the agent on this project. The prompt is built at run time, after template
        rendering, so error text quoted in it is never read as Jinja."""
        spec = replace(
            self._spec(context),
            agent=plan.agent,
            model=plan.model,
            cwd=plan.project_path,
            agent_options=dict(plan.agent_options),
            prompt=prompt,
            timeout=timeout,
        )
        return self.run_spec(context, spec)


class ConfigureHooksOperator(_ProjectAgentOperator):
    """Ask the agent for pre-commit hooks; success means the file exists, whatever it says."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("operation", "configure_hooks")
        super().__init__(**kwargs)

    def execute(self, context: Context) -> ParseResult | None:  # type: ignore[override]
        prepared = pull_prepared(context, self.task_id)
        plan = prepared.plan
        project = Path(plan.project_path)
        if (project / HOOKS_FILE).is_file():
            self.log.info("%s already exists in %s: no agent call", HOOKS_FILE, project)
            return None
        checks = plan.checks or choose_checks(plan, None)[0]
        result = self.run_for(
            context, plan, hooks_prompt(plan, checks), plan.timeouts.configure_hooks
        )
        try:
            sha = verify_hooks(project)
        except (FixingError, GitError) as exc:
            raise _fail(self.operation, exc) from exc
        if sha:
            self.log.warning("the agent left %s uncommitted; committed it as %s", HOOKS_FILE, sha)
        self.log.info("verified: %s exists", project / HOOKS_FILE)
        return result


class DiscoverTestsOperator(_ProjectAgentOperator):
    """Ask how the tests run (TestConfig schema, retried with feedback); cached per project."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("output_schema", TestConfig)
        kwargs.setdefault("operation", "discover_tests")
        super().__init__(**kwargs)

    def execute(self, context: Context) -> ParseResult | None:  # type: ignore[override]
        prepared = pull_prepared(context, self.task_id)
        plan = prepared.plan
        config = load_task_config(self.operation, self.config_path)
        cache = cache_for(plan, config)
        lookup = cache.get(plan.project_path)
        ti = context["ti"]
        if lookup.config is not None:
            self.log.info("test config cache %s: no agent call", lookup.reason)
            ti.xcom_push(key=TEST_CONFIG_KEY, value=lookup.config.model_dump(mode="json"))
            return None
        self.log.info("test config cache: %s", lookup.reason)
        result = self.run_for(context, plan, discover_prompt(plan), plan.timeouts.discover_tests)
        try:
            test_config = TestConfig.model_validate(result.data)
        except ValueError as exc:  # fail-safe: a "success" without a valid answer is not one
            raise _fail(self.operation, exc) from exc
        path = cache.put(plan.project_path, test_config)
        self.log.info("test config %s cached at %s", test_config.model_dump(), path)
        ti.xcom_push(key=TEST_CONFIG_KEY, value=test_config.model_dump(mode="json"))
        return result


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

    def execute(self, context: Context) -> ParseResult:
        previous = pull_status(context, self.task_id, self.iteration - 1)
        reason = fix_skip_reason(previous, self.iteration)
        if reason is not None or previous is None:
            raise AirflowSkipException(f"fix_{self.iteration} not needed: {reason}")
        prepared = pull_prepared(context, self.task_id)
        plan = prepared.plan
        prompt = fix_prompt(plan, previous, pull_test_config(context, self.task_id))
        result = self.run_for(context, plan, prompt, plan.timeouts.fix)
        commits = commits_since(plan.project_path, previous.snapshot.head)
        if commits:
            for commit in commits:
                self.log.info("new commit %s %s", commit.sha[:12], redact(commit.subject))
        else:
            self.log.warning(
                "fix_%d made no new commit (HEAD still %s): counts as no progress",
                self.iteration,
                previous.snapshot.head[:12],
            )
        return result


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
        from autofix.audit.report import build_report, render
        from autofix.audit.stores import build_store

        raw = pull_here(context, sibling_id(self.task_id, "prepare"))
        if raw is None:
            raise AirflowFailException(
                "[summary] prepare did not finish (see its log); nothing changed"
            )
        prepared = Prepared.model_validate(raw)
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
        summary = write_summary(summary, config.fixing.runs_dir, render(report, "markdown"))
        self.log.info("summary:\n%s", render_summary(summary))
        value = summary.model_dump(mode="json")
        context["ti"].xcom_push(key=SUMMARY_KEY, value=value)
        if not summary.ok:
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
