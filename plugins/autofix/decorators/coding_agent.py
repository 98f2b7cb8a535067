"""``@task.coding_agent``: a TaskFlow function that returns the prompt for an AI coding agent.

The function runs first (with its arguments, XComs and context, like any ``@task``); the string
it returns is the prompt, and AIWrapperOperator runs the agent with every argument it takes
(``agent``, ``model``, ``output_schema``, ``conn_id``, ...). The task returns what the operator
returns, the ParseResult as XCom JSON; with ``output_schema``, the validated answer as a dict
(the whole ParseResult goes to the ``parse_result`` XCom key beside it).

The name is autofix's own: ``common.ai`` registers ``@task.agent`` and ``@task.llm``, so both
providers install side by side.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from airflow.sdk.bases.decorator import (
    DecoratedOperator,
    TaskDecorator,
    determine_kwargs,
    task_decorator_factory,
)
from airflow.sdk.definitions.context import context_merge

from autofix.operators.retry_policy import fail_now
from autofix.operators.wrapper import AIWrapperOperator, to_xcom

if TYPE_CHECKING:
    from airflow.sdk import Context

DECORATOR_NAME = "@task.coding_agent"
PARSE_RESULT_KEY = "parse_result"  # the whole ParseResult, beside a validated answer


class _CodingAgentDecoratedOperator(DecoratedOperator, AIWrapperOperator):
    """AIWrapperOperator whose prompt is what the decorated function returns."""

    # The prompt is made at run time, so it is no template field: the task log shows it.
    template_fields: Sequence[str] = (
        *DecoratedOperator.template_fields,
        *(name for name in AIWrapperOperator.template_fields if name != "prompt"),
    )
    template_fields_renderers: ClassVar[dict[str, str]] = {
        **DecoratedOperator.template_fields_renderers,
        **AIWrapperOperator.template_fields_renderers,
    }
    custom_operator_name: str = DECORATOR_NAME

    def __init__(
        self,
        *,
        python_callable: Callable[..., Any],
        op_args: Collection[Any] | None = None,
        op_kwargs: Mapping[str, Any] | None = None,
        **kwargs: Any,
    ) -> None:
        if "prompt" in kwargs:
            raise ValueError(
                f"{DECORATOR_NAME}: the decorated function returns the prompt; "
                "remove prompt= from the decorator's arguments"
            )
        super().__init__(
            python_callable=python_callable,
            op_args=op_args,
            op_kwargs=op_kwargs,
            prompt="",
            **kwargs,
        )

    def execute(self, context: Context) -> Any:
        context_merge(context, self.op_kwargs)
        kwargs = determine_kwargs(self.python_callable, self.op_args, context)
        self.prompt = self._checked_prompt(self.python_callable(*self.op_args, **kwargs))
        result = self.run_spec(context, self._spec(context))
        if self.output_schema is None or not result.success:
            return to_xcom(result)
        context["ti"].xcom_push(key=PARSE_RESULT_KEY, value=to_xcom(result))
        return result.data

    def _checked_prompt(self, prompt: object) -> str:
        name = getattr(self.python_callable, "__name__", "the function")
        if not isinstance(prompt, str) or not prompt.strip():
            got = "an empty string" if isinstance(prompt, str) else type(prompt).__name__
            fail_now(
                self.log,
                f"{DECORATOR_NAME} {name}() returned {got}, not the prompt. "
                "Next: return the prompt text from the function, then clear this task",
            )
        return prompt


def coding_agent_task(
    python_callable: Callable[..., Any] | None = None, **kwargs: Any
) -> TaskDecorator:
    """Wrap a function that returns a prompt into an AI coding agent task.

    Takes AIWrapperOperator's arguments (all but ``prompt``)::

        @task.coding_agent(agent="claude", cwd="/repos/app", timeout=1800)
        def fix_lint(report: str) -> str:
            return f"Fix these lint errors, then run ruff again:\\n{report}"

    The task's XCom is the ParseResult as JSON; with ``output_schema``, the validated answer
    as a dict. Importable directly too: ``from autofix.decorators import coding_agent_task``.
    """
    return task_decorator_factory(
        python_callable=python_callable,
        decorated_operator_class=_CodingAgentDecoratedOperator,
        **kwargs,
    )
