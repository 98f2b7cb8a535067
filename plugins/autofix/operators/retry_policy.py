"""How an agent task's failure reaches Airflow, and how long the next retry waits.

``AIWrapperOperator`` raises :class:`autofix.errors.AgentRetryLater` (Airflow's ``retries``
apply; it logs one line, no traceback) for transient and ordinary failures,
:class:`AgentPermanentError` (an ``AirflowFailException``: no retry) for permanent ones. When
the agent's output carried a reset time or a retry-after, the try's ParseResult holds it
(``retry_after_s``, capped by ``agents.max_retry_wait_seconds``) and :class:`AgentRetryPolicy`,
the operator's default
``retry_policy``, hands it to Airflow 3.3: the task runner evaluates the policy on the worker,
sends ``retry_delay_seconds`` with the up-for-retry state, the API server stores it as
``task_instance.retry_delay_override`` and ``TaskInstance.next_retry_datetime()`` returns
``end_date + override`` instead of the ``retry_delay`` / exponential-backoff schedule.
"""

from __future__ import annotations

from datetime import timedelta
from typing import TYPE_CHECKING, Any

from airflow.sdk import RetryDecision, RetryPolicy
from airflow.sdk.exceptions import AirflowFailException

from autofix.errors import AgentRetryLater, AutofixError

if TYPE_CHECKING:
    from airflow.sdk import Context

    from autofix.result import ParseResult


class AgentPermanentError(AutofixError, AirflowFailException):
    """A permanent agent failure (auth, invalid request, refusal, budget): no Airflow retry."""


def describe_wait(seconds: float) -> str:
    """``42s``, ``5m 3s``, ``3h 2m``: for the one log line about the wait."""
    total = round(seconds)
    hours, rest = divmod(total, 3600)
    minutes, secs = divmod(rest, 60)
    if hours:
        return f"{hours}h {minutes}m"
    if minutes:
        return f"{minutes}m {secs}s"
    return f"{seconds:.1f}s" if seconds < 10 else f"{secs}s"


class AgentRetryPolicy(RetryPolicy):
    """Retry after the delay the agent's output asked for; otherwise the task's own schedule.

    Airflow still counts the try against ``retries``: a policy can shorten or lengthen the wait,
    never add tries. Other exceptions fall through to Airflow's default behaviour.
    """

    def evaluate(
        self,
        exception: BaseException,
        try_number: int,
        max_tries: int,
        context: Context | None = None,
    ) -> RetryDecision:
        result: ParseResult | None = (
            exception.result if isinstance(exception, AgentRetryLater) else None
        )
        if result is None or result.retry_after_s is None:
            return RetryDecision.default()
        wait = result.retry_after_s
        reason = f"the agent's output asks to wait {describe_wait(wait)}"
        if result.failure_kind is not None:
            reason += f" ({result.failure_kind.value})"
        return RetryDecision.retry(delay=timedelta(seconds=wait), reason=reason)

    def serialize(self) -> dict[str, Any]:
        return {"__type": "AgentRetryPolicy"}

    @classmethod
    def deserialize(cls, data: dict[str, Any]) -> AgentRetryPolicy:
        return cls()
