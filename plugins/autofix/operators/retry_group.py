"""retry_with_feedback: attempts as separate tasks in the Grid, each fed the previous errors.

    attempt_1 → check_1 → attempt_2 → check_2 → … → attempt_N → check_N
                  │  └──────────────────────────────────────────────┐
                  └→ succeeded (pushes the valid ParseResult)        └→ failed (all attempts' errors)

A check routes to the next attempt only while the attempt policy allows it (attempts left, errors
not identical twice in a row). Branches skip only their direct downstream tasks that are not
reachable from the chosen one, so the shared ``succeeded``/``failed`` tasks stay reachable.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from airflow.sdk import TaskGroup, TriggerRule

from autofix.agents.registry import get_format
from autofix.errors import VerifyConfigError
from autofix.operators.branch import ParseResultBranchOperator
from autofix.operators.results import pull_results
from autofix.operators.retry_policy import NoRetryOnPermanentOperator, fail_now
from autofix.operators.wrapper import AIWrapperOperator, load_task_config, to_xcom
from autofix.result import ParseResult
from autofix.validation.failure_report import write_failure_report
from autofix.validation.policy import AttemptPolicy

if TYPE_CHECKING:
    from airflow.sdk import Context
    from pydantic import BaseModel

    from autofix.task.agent_task import AgentTask


class RetryGroupAttemptOperator(AIWrapperOperator):
    """One attempt of a retry group: attempt ``len(previous) + 1``, fed the earlier ones' errors."""

    def __init__(
        self, *, previous_attempts: Sequence[str], group_attempts: int, **kwargs: Any
    ) -> None:
        super().__init__(**kwargs)
        self.previous_attempts = list(previous_attempts)
        self.group_attempts = group_attempts

    def _run(self, context: Context, task: AgentTask) -> ParseResult:
        history = pull_results(context, self.previous_attempts)
        return task.run_group_attempt(history, self.group_attempts)


class RetryGroupSucceededOperator(NoRetryOnPermanentOperator):
    """Pushes the valid attempt's ParseResult, so ``group.output``-style pulls get one value."""

    def __init__(self, *, attempt_task_ids: Sequence[str], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.attempt_task_ids = list(attempt_task_ids)

    def execute(self, context: Context) -> dict[str, Any]:
        for result in reversed(pull_results(context, self.attempt_task_ids)):
            if result.success:
                self.log.info("valid answer from attempt %d", result.attempt)
                return to_xcom(result)
        fail_now(self.log, "no attempt produced a valid answer: see the attempts' logs")


class RetryGroupFailedOperator(NoRetryOnPermanentOperator):
    """Fails the group with every attempt's errors and writes the failure report."""

    def __init__(
        self,
        *,
        attempt_task_ids: Sequence[str],
        operation: str,
        original_prompt: str,
        config_path: str | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.attempt_task_ids = list(attempt_task_ids)
        self.operation = operation
        self.original_prompt = original_prompt
        self.config_path = config_path

    template_fields: Sequence[str] = ("original_prompt",)

    def execute(self, context: Context) -> None:
        config = load_task_config(self.log, self.config_path)
        history = pull_results(context, self.attempt_task_ids)
        lines = [f"[{self.operation}] no valid answer after {len(history)} attempt(s)"]
        for result in history:
            errors = "; ".join(f"{e.path} ({e.category.value})" for e in result.field_errors[:5])
            lines.append(
                f"  attempt {result.attempt}: {result.status.value}: {errors or result.error_message}"
            )
        if history:
            decision = AttemptPolicy.from_settings(config.validation).decide(history)
            report = write_failure_report(
                config.validation.report_dir,
                run=str(context["run_id"]),
                operation=self.operation,
                original_prompt=self.original_prompt,
                attempts=history,
                final_status=history[-1].status,
                reason=decision.reason,
            )
            lines.append(f"  failure report: {report}")
        fail_now(self.log, "\n".join(lines))


def retry_with_feedback(
    group_id: str,
    *,
    prompt: str,
    output_schema: type[BaseModel] | str,
    agent: str = "claude",
    max_attempts: int = 3,
    operation: str | None = None,
    policy: AttemptPolicy | None = None,
    **operator_kwargs: Any,
) -> TaskGroup:
    """Build the TaskGroup; use it like a task (``upstream >> group >> downstream``).

    ``operator_kwargs`` go to every attempt's AIWrapperOperator (cwd, env, timeout,
    ``retry_strategy``, ...). Each attempt sends what the retry strategy says (feedback by
    default for CLI agents; see ``autofix.validation.strategies``). Downstream tasks read the
    valid ParseResult from ``<group_id>.succeeded``.
    """
    if max_attempts < 1:
        raise ValueError(f"max_attempts must be >= 1, got {max_attempts}")
    if operator_kwargs.get("verify"):
        # Each attempt here validates one answer; checks and their feedback need the in-task loop.
        raise VerifyConfigError(
            "retry_with_feedback does not run verify= checks: use one AIWrapperOperator with "
            "verify= and max_attempts (its in-task loop resumes the agent with the checks' errors)"
        )
    operation = operation or group_id
    attempt_policy = policy or _check_policy(
        agent,
        max_attempts,
        operator_kwargs.get("retry_strategy"),
        operator_kwargs.get("config_path"),
    )
    with TaskGroup(group_id) as group:
        attempt_ids = [
            group.child_id(f"attempt_{n}")  # type: ignore[no-untyped-call]
            for n in range(1, max_attempts + 1)
        ]
        succeeded = RetryGroupSucceededOperator(
            task_id="succeeded",
            attempt_task_ids=attempt_ids,
            trigger_rule=TriggerRule.NONE_FAILED_MIN_ONE_SUCCESS,
        )
        failed = RetryGroupFailedOperator(
            task_id="failed",
            attempt_task_ids=attempt_ids,
            operation=operation,
            original_prompt=prompt,
            config_path=operator_kwargs.get("config_path"),
            trigger_rule=TriggerRule.NONE_FAILED_MIN_ONE_SUCCESS,
        )
        previous_check: ParseResultBranchOperator | None = None
        for n in range(1, max_attempts + 1):
            attempt = RetryGroupAttemptOperator(
                task_id=f"attempt_{n}",
                agent=agent,
                prompt=prompt,
                operation=operation,
                output_schema=output_schema,
                max_attempts=1,
                fail_on_error=False,
                previous_attempts=attempt_ids[: n - 1],
                group_attempts=max_attempts,
                **operator_kwargs,
            )
            check = ParseResultBranchOperator(
                task_id=f"check_{n}",
                upstream_task_id=attempt_ids[n - 1],
                on_success=succeeded.task_id,
                on_retry=attempt_ids[n] if n < max_attempts else None,
                on_failure=failed.task_id,
                history_task_ids=attempt_ids[:n],
                policy=attempt_policy,
            )
            if previous_check is not None:
                previous_check >> attempt
            attempt >> check >> [succeeded, failed]
            previous_check = check
    return group


def _check_policy(
    agent: str, max_attempts: int, retry_strategy: str | None, config_path: str | None
) -> AttemptPolicy:
    """The policy the checks decide with: the attempts' own (config, strategy, agent), so a
    resampling strategy is not stopped on identical errors."""
    return AttemptPolicy.from_config(
        config_path, max_attempts=max_attempts, strategy=retry_strategy
    ).resolved(get_format(agent).samples)
