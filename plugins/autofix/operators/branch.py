"""ParseResultBranchOperator: route on an upstream ParseResult."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from airflow.sdk import BaseBranchOperator

from autofix.operators.results import pull_result, pull_results
from autofix.result import Outcome, ParseResult

if TYPE_CHECKING:
    from airflow.sdk import Context

    from autofix.validation.policy import AttemptPolicy

Route = str | Sequence[str]


def _as_list(route: Route | None) -> list[str]:
    if route is None:
        return []
    return [route] if isinstance(route, str) else list(route)


class ParseResultBranchOperator(BaseBranchOperator):
    """Follow ``on_success``, ``on_retry`` or ``on_failure`` from ``upstream_task_id``'s result.

    A result that is retryable with feedback (invalid output, truncation) goes to ``on_retry``;
    with ``policy`` and ``history_task_ids`` the same AttemptPolicy as the in-task loop decides
    whether another attempt is worth it (attempts left, identical errors twice → failure).
    A missing or unreadable result routes to ``on_failure`` (fail-safe).
    """

    template_fields: Sequence[str] = ("upstream_task_id",)
    ui_color = "#ffe9c2"

    def __init__(
        self,
        *,
        upstream_task_id: str,
        on_success: Route,
        on_failure: Route,
        on_retry: Route | None = None,
        history_task_ids: Sequence[str] | None = None,
        policy: AttemptPolicy | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.upstream_task_id = upstream_task_id
        self.on_success = _as_list(on_success)
        self.on_failure = _as_list(on_failure)
        self.on_retry = _as_list(on_retry)
        self.history_task_ids = list(history_task_ids or [upstream_task_id])
        self.policy = policy

    def choose_branch(self, context: Context) -> Iterable[str]:
        try:
            result = pull_result(context, self.upstream_task_id)
        except (TypeError, ValueError) as exc:
            self.log.error("cannot read the result of %s: %s", self.upstream_task_id, exc)
            return self.on_failure
        if result is None:
            self.log.error("%s pushed no ParseResult; failing safe", self.upstream_task_id)
            return self.on_failure
        route = self._route(context, result)
        self.log.info(
            "%s: %s (%s) → %s",
            self.upstream_task_id,
            result.status.value,
            result.error_message or "ok",
            ", ".join(route) or "nothing",
        )
        return route

    def _route(self, context: Context, result: ParseResult) -> list[str]:
        if result.outcome is Outcome.SUCCESS:
            return self.on_success
        if result.outcome is Outcome.RETRY and self.on_retry:
            if self.policy is None:
                return self.on_retry
            history = pull_results(context, self.history_task_ids)
            decision = self.policy.decide(history)
            self.log.info(
                "attempt policy: %s (%s) %s",
                decision.action.value,
                decision.reason,
                decision.message,
            )
            if not decision.done:
                return self.on_retry
        return self.on_failure
