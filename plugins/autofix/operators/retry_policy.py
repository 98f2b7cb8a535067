"""How an agent task's failure reaches Airflow, and how long the next retry waits.

``AIWrapperOperator`` raises :class:`autofix.errors.AgentRetryLater` (Airflow's ``retries``
apply; it logs one line, no traceback) for transient and ordinary failures,
:class:`AgentPermanentError` for permanent ones: :func:`fail_now` logs the reason and the next
step in one ERROR line and raises a :class:`autofix.errors.PermanentTaskError`, which Airflow
logs without a traceback and :class:`AgentRetryPolicy` fails without a retry. Every autofix
operator fails that way when a person must change something first. When
the agent's output carried a reset time or a retry-after, the try's ParseResult holds it
(``retry_after_s``, capped by ``agents.max_retry_wait_seconds``) and :class:`AgentRetryPolicy`,
the operator's default
``retry_policy``, hands it to Airflow 3.3: the task runner evaluates the policy on the worker,
sends ``retry_delay_seconds`` with the up-for-retry state, the API server stores it as
``task_instance.retry_delay_override`` and ``TaskInstance.next_retry_datetime()`` returns
``end_date + override`` instead of the ``retry_delay`` / exponential-backoff schedule.

A usage or rate limit goes by the task's ``on_limit`` (:mod:`autofix.task.limit_action`):
``retry`` as above, ``skip`` when the reset is beyond the retries' reach, ``fail`` at once;
:func:`limit_line` is the one line that says which, with the reset time.
"""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any, NoReturn, Protocol

from airflow.sdk import BaseOperator, RetryDecision, RetryPolicy

from autofix.errors import AgentRetryLater, PermanentTaskError
from autofix.redact import redact
from autofix.task.limit_action import RetrySchedule

if TYPE_CHECKING:
    from airflow.sdk import Context

    from autofix.config import OnLimit
    from autofix.result import ParseResult


class AgentPermanentError(PermanentTaskError):
    """A permanent agent failure (auth, invalid request, refusal, budget): no Airflow retry."""


class _Log(Protocol):
    def error(self, message: Any, /, *args: Any) -> Any: ...

    def info(self, message: Any, /, *args: Any) -> Any: ...


def fail_now(
    log: _Log,
    message: str,
    details: str = "",
    *,
    error: type[PermanentTaskError] = PermanentTaskError,
    result: ParseResult | None = None,
) -> NoReturn:
    """Fail the task without a retry or a traceback: the message's first line (the reason, then
    the next step) as one ERROR line, the rest and ``details`` folded below it."""
    first, _, rest = redact(message).strip().partition("\n")
    log.error("%s", first)
    more = "\n".join(part for part in (rest.strip(), redact(details).strip()) if part)
    if more:
        log.info("::group::details")
        log.info("%s", more)
        log.info("::endgroup::")
    raise error(first, result)


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


def _seconds(value: timedelta | float | None) -> float | None:
    if value is None:
        return None
    return value.total_seconds() if isinstance(value, timedelta) else float(value)


def retry_schedule(task: BaseOperator, ti: Any, max_wait_s: float | None) -> RetrySchedule:
    """The task's retries from the try that just ended; ``max_wait_s`` caps the wait
    :class:`AgentRetryPolicy` grants a reset (None: uncapped), unless another policy runs."""
    output_cap = None
    if isinstance(task.retry_policy, AgentRetryPolicy):
        output_cap = math.inf if max_wait_s is None else max_wait_s
    return RetrySchedule(
        try_number=int(getattr(ti, "try_number", 1) or 1),
        max_tries=int(getattr(ti, "max_tries", None) or task.retries or 0),
        retry_delay_s=_seconds(task.retry_delay) or 0.0,
        backoff=float(task.retry_exponential_backoff or 0),
        max_retry_delay_s=_seconds(task.max_retry_delay),
        output_wait_cap_s=output_cap,
    )


def limit_line(
    kind: str,
    action: OnLimit,
    reset_in_s: float | None,
    schedule: RetrySchedule,
    now: datetime | None = None,
) -> str:
    """One line for a limit the task skips or fails: the limit, its reset as a UTC time and
    how far away, and why no retry helps (the retries left and how long they can wait)."""
    if reset_in_s is None:
        reset = "its reset time is unknown"
    else:
        at = (now or datetime.now(UTC)) + timedelta(seconds=reset_in_s)
        reset = f"it resets at {at:%Y-%m-%d %H:%M} UTC, in {describe_wait(reset_in_s)}"
    if action == "fail":
        return (
            f"failed ({kind}): {reset} (on_limit='fail'). Next: clear this task after the "
            "reset, or set on_limit='retry' to wait for it"
        )
    left = schedule.retries_left
    why = (
        "no retries left"
        if left == 0
        else f"beyond the retries' reach: {left} retr{'y' if left == 1 else 'ies'} left can "
        f"wait {describe_wait(schedule.reach_s())} in all"
    )
    return (
        f"skipped ({kind}): {reset}; {why} (on_limit='skip'). Next: clear this task after the "
        "reset, or raise retries or agents.max_retry_wait_seconds so that a retry waits for it"
    )


class AgentRetryPolicy(RetryPolicy):
    """Retry after the delay the agent's output asked for; otherwise the task's own schedule.

    Airflow still counts the try against ``retries``: a policy can shorten or lengthen the wait,
    never add tries. A :class:`PermanentTaskError` fails at once. Other exceptions fall through
    to Airflow's default behaviour.
    """

    def evaluate(
        self,
        exception: BaseException,
        try_number: int,
        max_tries: int,
        context: Context | None = None,
    ) -> RetryDecision:
        if isinstance(exception, PermanentTaskError):
            return RetryDecision.fail(reason="a permanent failure: a retry would not help")
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


class NoRetryOnPermanentOperator(BaseOperator):
    """An autofix operator that is no agent call: its ``fail_now`` never retries either, even
    under a DAG whose ``default_args`` give every task ``retries``."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("retry_policy", AgentRetryPolicy())
        super().__init__(**kwargs)
