"""Experiment DAGs for docs/ui-research.md: each answers one question against the real Airflow 3.3.2.

Run them with ``.venv/bin/python docs/ui-research/experiments/run.py`` (starts the real services
on loopback, triggers every DAG, prints what the REST API returns, stops everything).
"""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import Any, ClassVar

import pendulum
from airflow.sdk import DAG, BaseOperator, Param, TaskGroup, task, task_group
from airflow.sdk.definitions.retry_policy import RetryDecision, RetryPolicy

from autofix.result import ParseResult, Status, TokenUsage

START = pendulum.datetime(2025, 1, 1, tz="UTC")
log = logging.getLogger(__name__)


# -- 1. trigger form: which params the React form treats as required ---------------------------

exp_form = DAG(
    "exp_form",
    schedule=None,
    start_date=START,
    catchup=False,
    params={
        "str_empty": Param("", type="string", title="A: string, default ''"),
        "str_nullable": Param(None, type=["null", "string"], title="B: ['null','string'], None"),
        "str_nullable_empty": Param("", type=["null", "string"], title="C: ['null','string'], ''"),
        "arr_empty": Param([], type="array", title="D: array, []"),
        "arr_nullable": Param(
            [], type=["null", "array"], items={"type": "string"}, title="E: ['null','array'], []"
        ),
        "arr_enum_nullable": Param(
            [],
            type=["null", "array"],
            items={"type": "string", "enum": ["ruff", "mypy"]},
            examples=["ruff", "mypy"],
            title="F: ['null','array'] multi-select",
        ),
        "obj": Param({}, type=["null", "object"], title="G: ['null','object'], {}"),
        "int_req": Param(3, type="integer", minimum=1, title="H: integer 3 (required, has value)"),
        "md": Param(
            None,
            type=["null", "string"],
            title="I: description_md",
            description_md="**Markdown** help with `code` and a [link](https://airflow.apache.org)",
        ),
        "plain": Param(
            None,
            type=["null", "string"],
            title="J: description",
            description="Plain description text.",
            section="Advanced",
        ),
    },
)
with exp_form:

    @task
    def show(**context: Any) -> dict[str, Any]:
        params = dict(context["params"])
        log.info("params as the task sees them: %r", params)
        return {k: v for k, v in params.items()}

    show()


# -- 2. XCom: typed object vs dict, what the UI/REST returns, what downstream gets -------------


def sample_result() -> ParseResult:
    return ParseResult(
        success=True,
        status=Status.COMPLETED,
        operation="fix",
        cost_usd=0.0123,
        usage=TokenUsage(input_tokens=1200, output_tokens=80),
        matched_rules=["node-deprecation"],
    )


class ModelPushOperator(BaseOperator):
    """Returns the pydantic ParseResult itself (today's behaviour)."""

    def execute(self, context: Any) -> ParseResult:
        return sample_result()


class DictPushOperator(BaseOperator):
    """Returns ParseResult.model_dump(mode='json') (the candidate fix)."""

    def execute(self, context: Any) -> dict[str, Any]:
        return sample_result().model_dump(mode="json")


class PullOperator(BaseOperator):
    def execute(self, context: Any) -> dict[str, str]:
        ti = context["ti"]
        seen = {}
        for task_id in ("push_model", "push_dict"):
            value = ti.xcom_pull(task_ids=task_id)
            typed = value if isinstance(value, ParseResult) else ParseResult.model_validate(value)
            seen[task_id] = (
                f"{type(value).__name__} -> {type(typed).__name__} cost={typed.cost_usd}"
            )
            self.log.info("%s pulled as %s", task_id, seen[task_id])
        return seen


with DAG("exp_xcom", schedule=None, start_date=START, catchup=False) as exp_xcom:
    [
        ModelPushOperator(task_id="push_model"),
        DictPushOperator(task_id="push_dict"),
    ] >> PullOperator(task_id="pull")


# -- 3. map_index_template on a mapped task group, nested per-iteration groups ------------------


class ProjectStep(BaseOperator):
    """A step that does not receive the mapped argument: it names itself via the context."""

    def __init__(self, *, project: Any = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.project = project

    template_fields = ("project",)

    def execute(self, context: Any) -> str:
        name = (self.project or {}).get("name") if isinstance(self.project, dict) else None
        if name is None:  # steps without the argument: what an upstream step pushed
            name = context["ti"].xcom_pull(
                task_ids="per_project.prepare", map_indexes=context["ti"].map_index
            )
        context["project_name"] = name  # read by map_index_template after execute
        return str(name)


with DAG("exp_map", schedule=None, start_date=START, catchup=False) as exp_map:

    @task
    def plan() -> list[dict[str, str]]:
        return [{"name": "api"}, {"name": "web"}]

    @task_group(
        group_id="per_project",
        default_args={"map_index_template": "{{ project_name | default('?') }}"},
    )
    def per_project(project: dict[str, str]) -> None:
        prepare = ProjectStep(task_id="prepare", project=project)
        previous: Any = prepare
        for n in (1, 2):
            with TaskGroup(group_id=f"iteration_{n}"):
                fix = ProjectStep(task_id=f"fix_{n}")
                check = ProjectStep(task_id=f"check_{n}")
                previous >> fix >> check
            previous = check
        previous >> ProjectStep(task_id="summary")

    per_project.expand(project=plan())


# -- 4. per-try retry delay through a RetryPolicy, and 5. how failures and groups log ----------


class TransientAgentError(Exception):
    """A transient failure that knows how long to wait (e.g. a usage limit's reset time)."""

    def __init__(self, message: str, retry_after: float) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class RetryAfterPolicy(RetryPolicy):
    """Retry transient failures after the delay the exception carries; else Airflow's default."""

    def evaluate(
        self, exception: BaseException, try_number: int, max_tries: int, context: Any = None
    ) -> RetryDecision:
        delay = getattr(exception, "retry_after", None)
        if delay is None:
            return RetryDecision.default()
        return RetryDecision.retry(
            delay=timedelta(seconds=float(delay)),
            reason=f"transient: retry in {delay:g}s (try {try_number} of {max_tries + 1})",
        )


class QuietTransientExit(SystemExit):
    """SystemExit is the one failure the 3.3 task runner logs without a traceback."""

    def __init__(self, message: str, retry_after: float) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class FlakyOperator(BaseOperator):
    def __init__(self, *, how: str, retry_after: float, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.how = how
        self.retry_after = retry_after

    def execute(self, context: Any) -> str:
        ti = context["ti"]
        self.log.info("::group::agent transcript (try %d)", ti.try_number)
        self.log.info("assistant: I will fix the import")
        self.log.info("::group::nested: tool call Edit(file='a.py')")
        self.log.info("tool result: ok")
        self.log.info("::endgroup::")
        self.log.info("::endgroup::")
        self.log.info("[noise: node-deprecation] (node:1) DeprecationWarning: punycode")
        self.log.warning("[error: usage-limit] You've hit your usage limit")
        self.log.info("structured fields", extra={"kind": "usage_limit"})
        # Task state store (3.3): rows survive retries (XComs are cleared at each new try).
        verdict = {"try": ti.try_number, "success": ti.try_number > 1, "kind": "usage_limit"}
        context["task_state_store"].set(f"verdict_try_{ti.try_number}", verdict)
        if ti.try_number == 1:
            message = (
                f"transient (usage limit): Airflow retries in {self.retry_after:g} s, "
                f"try {ti.try_number} of {ti.max_tries + 1}"
            )
            if self.how == "exception":
                self.log.error(message)
                raise TransientAgentError(message, self.retry_after)
            if self.how == "systemexit":
                raise QuietTransientExit(message, self.retry_after)
        return f"ok on try {ti.try_number}"


with DAG("exp_retry", schedule=None, start_date=START, catchup=False) as exp_retry:
    common = {
        "retries": 2,
        "retry_delay": timedelta(seconds=60),
        "retry_policy": RetryAfterPolicy(),
    }
    FlakyOperator(task_id="exception_7s", how="exception", retry_after=7, **common)
    FlakyOperator(task_id="systemexit_3s", how="systemexit", retry_after=3, **common)
    # No policy: the static retry_delay (2 s) applies.
    FlakyOperator(
        task_id="no_policy_2s",
        how="exception",
        retry_after=99,
        retries=1,
        retry_delay=timedelta(seconds=2),
    )


# -- 6. a field computed at run time in the Rendered Templates tab -----------------------------


class PromptAtRunTime(BaseOperator):
    """Sets ``prompt`` in execute; ``overwrite_rtif_after_execution`` re-sends it at the end."""

    template_fields = ("prompt",)
    template_fields_renderers: ClassVar[dict[str, str]] = {"prompt": "md"}
    overwrite_rtif_after_execution = True

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.prompt = ""

    def execute(self, context: Any) -> None:
        self.prompt = "# Fix\nbuilt in execute() at try " + str(context["ti"].try_number)


class PromptAtRunTimePlain(PromptAtRunTime):
    overwrite_rtif_after_execution = False


class PromptBeforeExecute(BaseOperator):
    """Builds ``prompt`` in render_template_fields: stored before execute() starts."""

    template_fields = ("prompt",)
    template_fields_renderers: ClassVar[dict[str, str]] = {"prompt": "md"}

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.prompt = ""

    def render_template_fields(self, context: Any, jinja_env: Any = None) -> None:
        super().render_template_fields(context, jinja_env)
        self.prompt = "# Fix\nbuilt in render_template_fields for " + context["ti"].task_id

    def execute(self, context: Any) -> None:
        import time

        time.sleep(15)  # long enough to read the Rendered Templates tab during the run


with DAG("exp_rtif", schedule=None, start_date=START, catchup=False) as exp_rtif:
    PromptAtRunTime(task_id="overwrite_after")
    PromptAtRunTimePlain(task_id="set_in_execute_only")
    PromptBeforeExecute(task_id="render_override")
