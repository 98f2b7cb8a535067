"""Airflow glue for the ``autonomous_fixing`` DAG: one task per step of ``autofix.fixing``.

Each operator pulls its step's inputs from XCom, calls the step's function in
``autofix.fixing.steps`` and pushes what it returns; a ``FixingError`` fails the task at once.

Every task after ``plan`` runs inside a task group mapped over the run's projects, so each
reads its siblings' XComs at its own map index. Every task names its project in
``context["project_name"]``, which the group's ``map_index_template`` shows instead of the index.
Agent calls are AIWrapperOperator subclasses: each is its own task with its own log, retries and
ParseResult, and builds its prompt when its templates are rendered, so the Rendered Templates tab
shows it while the task runs.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from airflow.sdk import TriggerRule
from airflow.sdk.exceptions import AirflowSkipException

from autofix.errors import FixingError, GitError
from autofix.fixing.loop import Baseline
from autofix.fixing.plan import ProjectPlan
from autofix.fixing.prepare import Prepared
from autofix.fixing.steps import (
    PlannedCall,
    cached_or_call,
    check_step,
    discover_call,
    fix_call,
    fix_commits,
    hooks_call,
    hooks_verified,
    keep_test_config,
    plan_step,
    prepare_step,
    summary_failures,
    summary_step,
)
from autofix.fixing.summary import ProjectSummary, run_note
from autofix.fixing.testconfig import TestConfig, TestConfigCache, cache_for
from autofix.hooks.git_remote import GitRemoteHook
from autofix.listeners.run_note import RUN_NOTE_KEY
from autofix.operators.results import FAILED_RESULT_KEY, coerce_result, pull_here, pull_result
from autofix.operators.retry_policy import NoRetryOnPermanentOperator, fail_now
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


def sibling_id(task_id: str, name: str) -> str:
    """The id of step ``name`` (prepare, check_0, fix, summary, ...) of the project that
    ``task_id`` belongs to: its sibling in the project's group."""
    group, _, _ = task_id.rpartition(".")
    return f"{group}.{name}" if group else name


def name_project(context: Context, plan: ProjectPlan) -> None:
    """Name this task's map index after its project (the group's ``map_index_template``)."""
    context[PROJECT_NAME] = plan.name or Path(plan.project_path).name  # type: ignore[literal-required]


def pull_prepared(
    context: Context,
    task_id: str,
    missing: str = "prepare has no result for this project: read prepare's log",
) -> Prepared:
    """prepare's result for this task's project; names the project for the map index.
    Raises FixingError when prepare did not finish."""
    raw = pull_here(context, sibling_id(task_id, "prepare"))
    if raw is None:
        raise FixingError(missing)
    prepared = Prepared.model_validate(raw)
    name_project(context, prepared.plan)
    return prepared


def pull_baseline(context: Context, task_id: str) -> Baseline | None:
    raw = pull_here(context, sibling_id(task_id, "check_0"))
    return None if raw is None else Baseline.model_validate(raw)


def pull_test_config(context: Context, task_id: str) -> TestConfig | None:
    """discover_tests' answer: in its ParseResult when the agent was asked, else the cached
    config it pushed alone (each is pushed once)."""
    discover = sibling_id(task_id, "discover_tests")
    raw = pull_here(context, discover, key=TEST_CONFIG_KEY)
    if raw is None:
        result = coerce_result(pull_here(context, discover), discover)
        raw = result.data if result is not None and result.success else None
    return None if raw is None else TestConfig.model_validate(raw)


@contextmanager
def step_failure(
    log: Any, *also: type[Exception], note: tuple[Context, str] | None = None
) -> Iterator[None]:
    """A step that cannot go on fails the task at once, in one line that starts with the
    reason and ends with the next step; a retry would not help (``also``: the other errors
    this step reports the same way). ``note``: (context, step) of a step whose failure ends
    the whole run, so the run's note says why."""
    errors: tuple[type[Exception], ...] = (FixingError, *also)
    try:
        yield
    except errors as exc:
        if note is not None:
            context, step = note
            line = redact(str(exc)).splitlines()[0]
            context["ti"].xcom_push(key=RUN_NOTE_KEY, value=f"FAILED in {step}: {line}")
        fail_now(log, str(exc))


class PlanProjectsOperator(NoRetryOnPermanentOperator):
    """Resolve the run's projects (params, else ``fixing.projects``) into the mapped list."""

    ui_color = "#eeeeee"

    def execute(self, context: Context) -> list[dict[str, Any]]:
        config = load_task_config(self.log)
        with step_failure(self.log, note=(context, "plan")):
            plans = plan_step(
                context["params"],
                config,
                run_id=str(context["run_id"]),
                log=self.log,
            )
            for plan in plans:  # a remote that cannot work fails now, before any agent runs
                push, conn_id = plan.handoff.push, plan.handoff.git_conn_id
                if push != "none" and conn_id:
                    GitRemoteHook(conn_id).get_conn().check_for(push)
        return [plan.model_dump(mode="json") for plan in plans]


class PrepareOperator(NoRetryOnPermanentOperator):
    """The path is a git repo, the tree is clean, the work branch is checked out."""

    template_fields: Sequence[str] = ("plan",)
    ui_color = "#eeeeee"

    def __init__(self, *, plan: Any, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.plan = plan  # a mapped argument: one plan dict per map index

    def execute(self, context: Context) -> dict[str, Any]:
        with step_failure(self.log, ValueError):
            plan = ProjectPlan.model_validate(self.plan)
            name_project(context, plan)
            prepared = prepare_step(plan, self.log)
        return prepared.model_dump(mode="json")


class _ProjectAgentOperator(AIWrapperOperator):
    """An agent call on this map index's project; agent, cwd and options come from prepare.

    ``agent_call`` plans the call when the templates are rendered (before ``execute``), so
    the Rendered Templates tab shows the prompt during the run; being built after Jinja ran,
    error text quoted in it is never read as a template."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("prompt", "")
        super().__init__(**kwargs)
        self._call: PlannedCall | None = None

    def agent_call(self, context: Context) -> PlannedCall:
        raise NotImplementedError

    def planned_call(self, context: Context) -> PlannedCall:
        if self._call is None:
            with step_failure(self.log):
                self._call = self.agent_call(context)
        return self._call

    def render_template_fields(
        self, context: Context, jinja_env: Environment | None = None
    ) -> None:
        super().render_template_fields(context, jinja_env)
        self._call = None  # a new try plans anew (dag.test() reuses the operator)
        try:
            call = self._call = self.agent_call(context)
        except Exception as exc:  # execute asks again and fails with the real reason
            self.log.warning("the prompt could not be built yet: %s", redact(str(exc)))
            return
        self.prompt = call.prompt or f"(no agent call: {call.reason})"

    def run_for(self, context: Context, call: PlannedCall) -> ParseResult:
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
            verify=call.verify or self.verify,
            max_attempts=call.max_attempts or self.max_attempts,
            agent_clis_dir=self.agent_clis_dir or plan.agent_clis_dir,
        )
        return self.run_spec(context, spec)


class ConfigureHooksOperator(_ProjectAgentOperator):
    """Ask the agent for pre-commit hooks; success means the file exists, whatever it says."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("operation", "configure_hooks")
        super().__init__(**kwargs)

    def agent_call(self, context: Context) -> PlannedCall:
        return hooks_call(pull_prepared(context, self.task_id))

    def execute(self, context: Context) -> dict[str, Any] | None:  # type: ignore[override]
        call = self.planned_call(context)
        if call.prompt is None:
            self.log.info("%s: no agent call", redact(call.reason))
            return None
        result = self.run_for(context, call)
        with step_failure(self.log, GitError):
            hooks_verified(call.prepared, self.log)
        return to_xcom(result)


class DiscoverTestsOperator(_ProjectAgentOperator):
    """Ask how the tests run (TestConfig schema, retried with feedback); cached per project."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("output_schema", TestConfig)
        kwargs.setdefault("operation", "discover_tests")
        super().__init__(**kwargs)

    def _cache(self, plan: ProjectPlan) -> TestConfigCache:
        return cache_for(plan, load_task_config(self.log, self.config_path))

    def agent_call(self, context: Context) -> PlannedCall:
        prepared = pull_prepared(context, self.task_id)
        return discover_call(prepared, self._cache(prepared.plan))

    def execute(self, context: Context) -> dict[str, Any] | None:  # type: ignore[override]
        planned = self.planned_call(context)
        cache = self._cache(planned.prepared.plan)
        call = cached_or_call(planned, cache)
        if isinstance(call, TestConfig):  # pushed alone: there is no ParseResult to carry it
            self.log.info("%s: no agent call", redact(planned.reason))
            context["ti"].xcom_push(key=TEST_CONFIG_KEY, value=call.model_dump(mode="json"))
            return None
        self.log.info("test config %s", redact(call.reason))
        result = self.run_for(context, call)
        with step_failure(self.log):
            keep_test_config(call.prepared.plan, cache, result.data, self.log)
        return to_xcom(result)  # its data is the test config: pushed once


class CheckOperator(NoRetryOnPermanentOperator):
    """check_0: run the real check tools before the fix; the fix's own checks come after."""

    ui_color = "#e6f5d0"

    def execute(self, context: Context) -> dict[str, Any]:
        with step_failure(self.log):
            prepared = pull_prepared(context, self.task_id)
            test_config = pull_test_config(context, self.task_id)
            baseline = check_step(prepared.plan, test_config, self.log)
        return baseline.model_dump(mode="json")


class FixOperator(_ProjectAgentOperator):
    """The fix: the agent gets the grouped errors; after each attempt every check runs again
    and a new commit is expected, and what fails goes back to the agent (``verify``), up to
    ``max_iterations`` attempts. Skips when the checks are clean."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("operation", "fix")
        super().__init__(**kwargs)

    def agent_call(self, context: Context) -> PlannedCall:
        prepared = pull_prepared(context, self.task_id)
        baseline = pull_baseline(context, self.task_id)
        return fix_call(prepared, baseline, pull_test_config(context, self.task_id))

    def execute(self, context: Context) -> dict[str, Any]:
        call = self.planned_call(context)
        if call.prompt is None:
            raise AirflowSkipException(f"fix not needed: {call.reason}")
        self.log.info("fix: %s", call.reason)
        result = self.run_for(context, call)
        commits = fix_commits(call, self.log)
        # The commits belong to this fix's record; readers of the ParseResult ignore the key.
        return to_xcom(result, commits=[c.model_dump(mode="json") for c in commits])


class SummaryOperator(NoRetryOnPermanentOperator):
    """Issues before (check_0) and after (the fix's last checks), commits, agent calls and
    cost; fails unless the project is clean."""

    ui_color = "#fff3b0"

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("trigger_rule", TriggerRule.ALL_DONE)
        super().__init__(**kwargs)

    def _failed_result(self, context: Context, name: str) -> ParseResult | None:
        task_id = sibling_id(self.task_id, name)
        return coerce_result(pull_here(context, task_id, FAILED_RESULT_KEY), task_id)

    def execute(self, context: Context) -> dict[str, Any]:
        missing = "prepare did not finish, so nothing changed: read prepare's log"
        with step_failure(self.log):
            prepared = pull_prepared(context, self.task_id, missing)
        baseline = pull_baseline(context, self.task_id)
        summary = summary_step(
            load_task_config(self.log),
            run_id=str(context["run_id"]),
            prepared=prepared,
            baseline=baseline,
            fix=pull_result(context, sibling_id(self.task_id, "fix")),
            failures=summary_failures(baseline, lambda name: self._failed_result(context, name)),
            log=self.log,
        )
        return self._push(context, summary)

    def _push(self, context: Context, summary: ProjectSummary) -> dict[str, Any]:
        """The summary as the return value, or, unless the project is clean, failing the task.
        Its line for the run's note goes to ``RUN_NOTE_KEY`` either way."""
        context["ti"].xcom_push(key=RUN_NOTE_KEY, value=run_note(summary))
        value = summary.model_dump(mode="json")
        if not summary.ok:  # a failed task pushes no return value: keep the summary readable
            context["ti"].xcom_push(key=SUMMARY_KEY, value=value)
            fail_now(
                self.log,
                f"{summary.outcome}: {summary.reason}",
                f"project: {summary.project_path}\nreport: {summary.report}",
            )
        return value
