"""Airflow glue for the human gate after each project's ``summary``: ``approval``, ``publish``.

``ApprovalGateOperator`` is Airflow 3.3's ``ApprovalOperator`` (standard provider). It runs
after a summary that succeeded (a clean project; a failed summary leaves it upstream_failed, so
the run still ends failed) and writes the request (``autofix.fixing.approval``) and parks the task in ``awaiting_input``. The task's
process ends there: no worker slot, no pool slot, no trigger; the api-server's answer (the
Required Actions page, or ``PATCH …/hitlDetails``) or the scheduler's timeout sweep schedules
``execute_complete``. No answer in time applies the default, Reject. A rejection fails the
task in one line (the run ends as rejected) and leaves the branch where it is.

``PublishOperator`` then does what ``push`` says (``autofix.fixing.publish``). It is its own
task so a failed push is cleared and run again without asking the person again.
"""

from __future__ import annotations

from datetime import timedelta
from typing import TYPE_CHECKING, Any

from airflow.providers.standard.operators.hitl import ApprovalOperator
from airflow.sdk import TriggerRule
from airflow.sdk.exceptions import AirflowSkipException

from autofix.fixing.approval import REJECT, Decision, decision_from, rejection
from autofix.fixing.publish import GitRemote, publish_note
from autofix.fixing.steps import approval_step, publish_step
from autofix.fixing.summary import ProjectSummary
from autofix.hooks.git_remote import GitRemoteHook
from autofix.listeners.run_note import RUN_NOTE_KEY
from autofix.operators.fixing import SUMMARY_KEY, pull_prepared, sibling_id, step_failure
from autofix.operators.results import pull_here
from autofix.operators.retry_policy import (
    AgentRetryPolicy,
    NoRetryOnPermanentOperator,
    fail_now,
)
from autofix.redact import redact

if TYPE_CHECKING:
    from airflow.sdk import Context

DECISION_KEY = "decision"  # the Task State Store key of the gate's answer
_NOTHING_HAPPENED = "prepare did not finish, so there is no branch to approve or push"


def pull_summary(context: Context, task_id: str) -> ProjectSummary | None:
    """The project's summary: its return value when clean, else the one it kept aside."""
    summary = sibling_id(task_id, "summary")
    raw = pull_here(context, summary) or pull_here(context, summary, key=SUMMARY_KEY)
    return None if raw is None else ProjectSummary.model_validate(raw)


class ApprovalGateOperator(ApprovalOperator):
    """Ask a person to approve the project's work branch; see the module docstring."""

    ui_color = "#ffd8a8"

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("subject", "autofix: approve the work branch?")  # set per project
        kwargs.setdefault("defaults", REJECT)  # what the timeout answers
        kwargs.setdefault("retry_policy", AgentRetryPolicy())  # a rejection is never retried
        super().__init__(**kwargs)

    def execute(self, context: Context) -> None:
        with step_failure(self.log):
            prepared = pull_prepared(context, self.task_id, _NOTHING_HAPPENED)
        request = approval_step(prepared, pull_summary(context, self.task_id), self.log)
        if request is None:
            raise AirflowSkipException("no approval asked (the reason is logged above)")
        # Set after the templates were rendered: agent-written text is never read as Jinja.
        self.subject, self.body = request.subject, request.body
        self.response_timeout = timedelta(seconds=prepared.plan.handoff.approval_timeout)
        super().execute(context)  # parks the task in awaiting_input; returns no more

    def execute_complete(self, context: Context, event: dict[str, Any]) -> dict[str, Any]:
        with step_failure(self.log):
            plan = pull_prepared(context, self.task_id, _NOTHING_HAPPENED).plan
        answer = super().execute_complete(context, event)  # checks the answer
        decision = decision_from(
            answer["chosen_options"],
            answer["responded_by_user"],
            answer["responded_at"],
            timed_out=bool(event.get("timedout")),
        )
        self._remember(context, decision)
        if not decision.approved:
            failure, note = rejection(plan, decision)
            context["ti"].xcom_push(key=RUN_NOTE_KEY, value=note)
            fail_now(self.log, failure)
        self.log.info("approved %s", redact(decision.who(plan.handoff.approval_timeout)))
        return decision.model_dump(mode="json")

    def _remember(self, context: Context, decision: Decision) -> None:
        """The answer in the Task State Store: the task's own record of what was decided."""
        store = context.get("task_state_store")
        if store is None:
            return
        try:
            store.set(DECISION_KEY, {"decision": decision.word, **decision.model_dump()})
        except Exception as exc:  # the state store is a record, never a reason to fail
            self.log.warning("cannot keep the decision in the task state store: %s", exc)


class PublishOperator(NoRetryOnPermanentOperator):
    """Push the approved branch, or open a pull request, as the plan's ``push`` says."""

    ui_color = "#d0ebff"

    def __init__(self, **kwargs: Any) -> None:
        # Runs when the gate approved, or skipped itself because approval is off.
        kwargs.setdefault("trigger_rule", TriggerRule.NONE_FAILED)
        super().__init__(**kwargs)

    def execute(self, context: Context) -> dict[str, Any]:
        with step_failure(self.log):
            prepared = pull_prepared(context, self.task_id, _NOTHING_HAPPENED)
        raw = pull_here(context, sibling_id(self.task_id, "approval"))
        decision = None if raw is None else Decision.model_validate(raw)
        with step_failure(self.log):
            published = publish_step(
                prepared, pull_summary(context, self.task_id), decision, _remote, self.log
            )
        note = publish_note(prepared.plan, decision, published)
        if note is not None:
            context["ti"].xcom_push(key=RUN_NOTE_KEY, value=note)
        if published.pushed is None and decision is None:
            raise AirflowSkipException(f"not pushed: {published.skipped}")
        pull = published.pull_request
        return {
            "push": published.push,
            "pushed": published.pushed,
            "pull_request": None if pull is None else pull.url,
            "skipped": published.skipped or None,
        }


def _remote(git_conn_id: str) -> GitRemote:
    return GitRemoteHook(git_conn_id).get_conn()
