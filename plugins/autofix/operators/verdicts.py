"""What one try of an agent task tells a person, and keeps for later.

A failed try logs one line: its kind, what Airflow does next, when, and which try
("transient (usage limit): Airflow retries in 5 s, try 1 of 3"); a permanent failure says what
to do next. Each try's verdict and spend go to the Task State Store, which every try of the
task instance shares: a new try deletes the task's XComs, not its state store entries, so the
earlier tries stay readable (Storage → Task State Store) and their cost is added to the last
try's ParseResult.
"""

from __future__ import annotations

import math
from datetime import timedelta
from typing import TYPE_CHECKING, Any

from autofix.connections.logins import LOGIN_STEPS
from autofix.costs import CostSource, combined_source
from autofix.redact import redact
from autofix.result import AttemptSpend, FailureKind, ParseResult, RetryClass, Status

if TYPE_CHECKING:
    import logging

    from airflow.sdk import BaseOperator, Context

TRY_KEY = "try_{}"

# What a person does about a failure the task does not retry, by kind: every permanent and
# invalid-output kind has its own line, so a kind never gets advice written for another one
# (config and missing_cli share invalid_request's status, not its advice).
NEXT_STEP_BY_KIND: dict[FailureKind, str] = {
    FailureKind.AUTH: "check the agent's credentials on the worker (API key, login), "
    "then clear this task",
    FailureKind.PERMISSION: "the agent or its tools were not allowed this: check the key's "
    "access, the permission mode, the allowed tools and the sandbox, then clear this task",
    FailureKind.QUOTA_EXHAUSTED: "the provider account is out of credit or over its spend "
    "limit: add credit or raise the limit in the provider's billing settings, then clear this "
    "task (retrying does not help until then)",
    FailureKind.INVALID_REQUEST: "check the model name, the agent options and the prompt's "
    "size, then clear this task",
    FailureKind.CONTEXT_WINDOW: "the prompt does not fit the model: send less context or use "
    "a model with a larger window",
    FailureKind.REFUSAL: "the model refused the prompt: change the prompt or the model",
    FailureKind.MAX_TURNS: "the agent hit its turn cap: raise max_turns or split the task",
    FailureKind.SPEND_CAP: "the agent CLI's own per-run cost cap stopped it (claude's "
    "max_budget_usd option): raise the cap or ask for less, then clear this task",
    FailureKind.BUDGET_EXHAUSTED: "raise the budget in config/autofix.yaml (budgets) or wait "
    "for the next day, then clear this task",
    FailureKind.CONFIG: "the agent CLI refused this setup (a missing session, a required MCP "
    "server, its settings or flags): read the CLI's line above, fix the setup, then clear "
    "this task",
    FailureKind.MISSING_CLI: "the agent CLI is not installed where the worker looks: run "
    '`make agent-clis` (installs the pinned CLIs into .agents) and set agent_clis_dir=".agents" '
    "on the operator, or install the CLI on the worker's PATH, then clear this task",
    FailureKind.MAX_TOKENS: "the answer was cut by the token limit: raise it or ask for less",
    FailureKind.EMPTY_ANSWER: "the agent ended without an answer: read its output above (what "
    "it did last, a hook or a tool that stopped it), then adjust the prompt and clear this task",
    FailureKind.STRUCTURED_OUTPUT: "no answer fitted the schema: read the field errors above "
    "and the failure report, then adjust the prompt or the schema",
    FailureKind.LOOP_DETECTED: "the agent CLI stopped the model repeating itself: make the "
    "prompt more specific or lower the task's scope",
    FailureKind.VERIFICATION_FAILED: "the agent said it was done but a verify= check failed: "
    "read the checks' errors above (and what was sent back), then fix the task's prompt, the "
    "project or the check, and clear this task",
}
# A result without a kind (a caller's own verdict) is named by its status, and advised by it.
NEXT_STEP: dict[Status, str] = {
    Status.AUTH_FAILED: NEXT_STEP_BY_KIND[FailureKind.AUTH],
    Status.INVALID_REQUEST: NEXT_STEP_BY_KIND[FailureKind.INVALID_REQUEST],
    Status.REFUSED: NEXT_STEP_BY_KIND[FailureKind.REFUSAL],
    Status.BUDGET_EXHAUSTED: NEXT_STEP_BY_KIND[FailureKind.BUDGET_EXHAUSTED],
    Status.UNKNOWN_FORMAT: "the output was not the format of agent=…: check the agent and its "
    "CLI version",
    Status.INVALID_OUTPUT: NEXT_STEP_BY_KIND[FailureKind.STRUCTURED_OUTPUT],
    Status.TRUNCATED: NEXT_STEP_BY_KIND[FailureKind.MAX_TOKENS],
}
DEFAULT_NEXT_STEP = "read the agent's output above, fix the cause, then clear this task"


def next_step(result: ParseResult) -> str:
    """What to do about a failure: the advice for its kind, else for its status when it has
    no kind, else the generic line. A failed login names where that agent reads its key."""
    if result.failure_kind is FailureKind.AUTH and result.agent in LOGIN_STEPS:
        return f"{LOGIN_STEPS[result.agent]}, then clear this task"
    if result.failure_kind is not None:
        return NEXT_STEP_BY_KIND.get(result.failure_kind, DEFAULT_NEXT_STEP)
    return NEXT_STEP.get(result.status, DEFAULT_NEXT_STEP)


# Kinds decided before any agent process ran: for these, no exit code means no process.
_NOT_STARTED_KINDS = frozenset(
    {FailureKind.MISSING_CLI, FailureKind.CONFIG, FailureKind.BUDGET_EXHAUSTED}
)


def did_not_start(result: ParseResult) -> bool:
    """True when the agent CLI never ran: no exit code, no run status and a kind that is
    decided before the start (a kill or a crash also leaves no exit code, after a start)."""
    return (
        result.exit_code is None
        and result.run_status is None
        and result.failure_kind in _NOT_STARTED_KINDS
    )


def kind_of(result: ParseResult) -> str:
    """The failure's kind in words: ``failure_kind`` when the parser names one, else the status."""
    kind = getattr(result, "failure_kind", None)  # ParseResult.failure_kind (issue 12)
    value = getattr(kind, "value", kind) or result.status.value
    return str(value).replace("_", " ")


def duration(seconds: float) -> str:
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 90 * 60:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


def _seconds(value: timedelta | float | None) -> float | None:
    if value is None:
        return None
    return value.total_seconds() if isinstance(value, timedelta) else float(value)


def retry_delay(task: BaseOperator, try_number: int, retry_after_s: float | None = None) -> str:
    """When Airflow starts the next try: ``retry_after_s`` when the output asked for it (the
    retry policy waits that long), else the task's ``retry_delay`` with exponential backoff,
    as ``TaskInstance.next_retry_datetime`` computes it (a range: it adds a per-try jitter)."""
    if retry_after_s is not None:
        return duration(retry_after_s)
    delay = _seconds(task.retry_delay) or 0.0
    factor = float(task.retry_exponential_backoff or 0)
    cap = _seconds(task.max_retry_delay)
    low = high = delay
    if factor > 0 and factor != 1.0:
        low = max(1.0, math.ceil(delay * factor ** (try_number - 1)))
        high = 2 * low - 1  # min_backoff + hash % min_backoff
    if cap is not None:
        low, high = min(low, cap), min(high, cap)
    if high <= low:
        return duration(low)
    (first, unit), last = duration(low).split(), duration(high)
    return f"{first}–{last}" if last.endswith(f" {unit}") else f"{first} {unit} – {last}"


def failure_line(result: ParseResult, task: BaseOperator, ti: Any) -> str:
    """One line for a failed try: kind, what Airflow does next and when, which try."""
    try_number = int(getattr(ti, "try_number", 1) or 1)
    retries = int(getattr(ti, "max_tries", None) or task.retries or 0)
    tries = max(retries + 1, try_number)
    kind = kind_of(result)
    if result.retry_class in (RetryClass.TRANSIENT, RetryClass.ERROR):
        label = "transient" if result.retry_class is RetryClass.TRANSIENT else "failed"
        if try_number <= retries:
            when = retry_delay(task, try_number, getattr(result, "retry_after_s", None))
            return f"{label} ({kind}): Airflow retries in {when}, try {try_number} of {tries}"
        return f"{label} ({kind}): no retries left, try {try_number} of {tries}: the task fails"
    reason = (result.error_message or result.status.value).splitlines()[0]
    return f"permanent ({kind}): {reason}. Next: {next_step(result)}"


def earlier_spend(context: Context, log: logging.Logger) -> list[AttemptSpend]:
    """The calls of this task's earlier tries, as they recorded them."""
    store = context.get("task_state_store")
    try_number = int(getattr(context["ti"], "try_number", 1) or 1)
    spend: list[AttemptSpend] = []
    if store is None:
        return spend
    for number in range(1, try_number):
        try:
            value = store.get(TRY_KEY.format(number))
        except Exception as exc:  # the state store is a record, never a reason to fail
            log.warning(
                "cannot read try %d's verdict from the task state store: %s",
                number,
                redact(str(exc)),
            )
            continue
        entries = value.get("per_attempt") if isinstance(value, dict) else None
        for entry in entries if isinstance(entries, list) else []:
            try:
                spend.append(AttemptSpend.model_validate(entry))
            except ValueError:
                log.warning("try %d's spend in the task state store is unreadable", number)
    return spend


def remember_try(context: Context, result: ParseResult, verdict: str, log: logging.Logger) -> None:
    """This try's verdict and its calls' spend, under ``try_<n>`` in the Task State Store."""
    store = context.get("task_state_store")
    if store is None:
        return
    try_number = int(getattr(context["ti"], "try_number", 1) or 1)
    mine = [item for item in result.per_attempt if item.try_number == try_number]
    mine = mine or [result.spend(try_number)]
    costs = [item.cost_usd for item in mine if item.cost_usd is not None]
    # A call of unknown cost leaves the try's cost unknown: a partial sum would pass for it.
    unknown = combined_source([item.cost_source for item in mine]) is CostSource.UNKNOWN
    value: dict[str, Any] = {
        "verdict": verdict,
        "status": result.status.value,
        "retry_class": result.retry_class.value,
        "kind": kind_of(result) if not result.success else None,
        "error_message": result.error_message or None,
        "cost_usd": round(sum(costs), 6) if costs and not unknown else None,
        "per_attempt": [item.model_dump(mode="json") for item in mine],
    }
    try:
        store.set(TRY_KEY.format(try_number), {k: v for k, v in value.items() if v is not None})
    except Exception as exc:  # the state store is a record, never a reason to fail
        log.warning("cannot keep this try's verdict in the task state store: %s", redact(str(exc)))
