"""The human gate after a project's summary: what a person is asked, and what they answered.

The request shows what the work branch holds (issues before and after, the cost, the
commits, ``git diff --stat``) and what an approval will do (``push``). The answer is a
:class:`Decision`; no answer before the timeout is a rejection. The Airflow operator
(``autofix.operators.approval``) asks and waits; nothing here knows Airflow.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from autofix import gitops
from autofix.errors import GitError
from autofix.fixing.loop import tool_counts
from autofix.fixing.plan import Handoff, ProjectPlan
from autofix.fixing.prepare import Prepared
from autofix.fixing.summary import ProjectSummary
from autofix.redact import redact

APPROVE = "Approve"  # the options of Airflow's ApprovalOperator
REJECT = "Reject"
_MARKDOWN_SPECIAL = re.compile(r"([\\`*_{}\[\]<>()#+!|~])")


def markdown_text(text: str) -> str:
    """Outside text (a commit subject) shown as itself in Markdown: redacted, one line, every
    character Markdown would read as markup escaped."""
    return _MARKDOWN_SPECIAL.sub(r"\\\1", " ".join(redact(text).split()))


def code_block(text: str, info: str = "text") -> str:
    """``text`` fenced, with a fence longer than any run of backticks inside it."""
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}{info}\n{text}\n{fence}"


def describe_seconds(seconds: float) -> str:
    """``24h``, ``1h 30m``, ``45m``, ``20s``: a timeout as people say it."""
    total = round(seconds)
    hours, rest = divmod(total, 3600)
    minutes, secs = divmod(rest, 60)
    parts = [f"{hours}h" if hours else "", f"{minutes}m" if minutes else ""]
    parts.append(f"{secs}s" if secs and not hours else "")
    return " ".join(part for part in parts if part) or "0s"


def nothing_to_review(plan: ProjectPlan, summary: ProjectSummary | None) -> str | None:
    """Why the project's branch has nothing for a person or a remote; None when it has."""
    if summary is None:
        return "the summary did not finish, so nothing is known about the branch"
    if not summary.commits:
        return f"no commit on {plan.work_branch} in this run"
    return None


def gate_skip_reason(plan: ProjectPlan, summary: ProjectSummary | None) -> str | None:
    """Why no person is asked about this project; None when one is."""
    if not plan.handoff.approval:
        return "approval is off (the run's approval param, or fixing.approval)"
    reason = nothing_to_review(plan, summary)
    return None if reason is None else f"nothing to approve: {reason}"


def on_approval(handoff: Handoff, branch: str, project: str) -> str:
    """What an approval does, in the words the request uses."""
    if handoff.push == "branch":
        return f"push `{branch}` to the remote of connection `{handoff.git_conn_id}`"
    if handoff.push == "pull_request":
        return (
            f"push `{branch}` to the remote of connection `{handoff.git_conn_id}` and open a "
            "pull request"
        )
    return f"nothing more (push: none): `{branch}` stays in `{project}`"


@dataclass(frozen=True)
class ApprovalRequest:
    """What the person sees: a one-line subject and a Markdown body."""

    subject: str
    body: str


def changes_overview(prepared: Prepared, summary: ProjectSummary) -> str:
    """The Markdown both the approval request and a pull request show: outcome, issues
    before and after, cost, commits and ``git diff --stat``."""
    plan = prepared.plan
    base = prepared.base_sha
    before = "-" if summary.errors_before is None else str(summary.errors_before)
    after = "-" if summary.errors_after is None else str(summary.errors_after)
    calls = summary.agent_calls
    try:
        stat = gitops.diff_stat(Path(plan.project_path), base, plan.work_branch)
    except GitError as exc:  # the request still goes out: the commits say what changed
        stat = f"git diff --stat failed: {exc}"
    commits = [f"- `{c.sha[:8]}` {markdown_text(c.subject)}" for c in summary.commits]
    return "\n".join(
        [
            f"**{markdown_text(summary.outcome.upper())}**: {markdown_text(summary.reason)}",
            "",
            "| checks | issues | by tool |",
            "|---|---|---|",
            f"| before | {before} | {markdown_text(tool_counts(summary.by_tool_before))} |",
            f"| after | {after} | {markdown_text(tool_counts(summary.by_tool_after))} |",
            "",
            f"**Cost**: ${calls.cost_usd:.4f} for {calls.calls} agent call(s) "
            f"({markdown_text(summary.agent)}, {calls.failed} failed)",
            "",
            f"**Commits** ({len(summary.commits)}):",
            *commits,
            "",
            f"**Changes** (`git diff --stat {base[:8]}..{plan.work_branch}`):",
            code_block(redact(stat)),
        ]
    )


def approval_request(prepared: Prepared, summary: ProjectSummary) -> ApprovalRequest:
    """The request for ``prepared``'s project once its summary is written."""
    plan = prepared.plan
    name = plan.name or Path(plan.project_path).name
    wait = describe_seconds(plan.handoff.approval_timeout)
    subject = f"autofix: approve {len(summary.commits)} commit(s) on {plan.work_branch} in {name}?"
    body = "\n".join(
        [
            f"Project `{plan.project_path}`, branch `{plan.work_branch}` (run `{summary.run_id}`)",
            "",
            changes_overview(prepared, summary),
            "",
            f"**{APPROVE}**: {on_approval(plan.handoff, plan.work_branch, plan.project_path)}.",
            "",
            f"**{REJECT}**, or no answer within {wait}: the branch stays in the project, "
            "nothing is pushed, and the run ends as rejected.",
        ]
    )
    return ApprovalRequest(subject=redact(subject), body=redact(body))


class Decision(BaseModel):
    """A person's answer, or the timeout's (``by`` None, ``timed_out``)."""

    approved: bool
    by: str | None = None
    at: str = ""  # ISO time of the answer
    timed_out: bool = False

    @property
    def word(self) -> str:
        return "approved" if self.approved else "rejected"

    def who(self, timeout: float) -> str:
        """``by alice``, or ``by default: no answer within 24h``."""
        if self.timed_out or self.by is None:
            return f"by default: no answer within {describe_seconds(timeout)}"
        return f"by {self.by}"


def decision_from(
    chosen: Sequence[str], by: Mapping[str, Any] | None, at: Any, timed_out: bool
) -> Decision:
    """The decision in an answer: ``chosen`` options, the user who answered, when."""
    user = None if by is None else str(by.get("name") or by.get("id") or "") or None
    when = at.isoformat() if hasattr(at, "isoformat") else str(at or "")
    return Decision(approved=APPROVE in chosen, by=user, at=when, timed_out=timed_out)


def rejection(plan: ProjectPlan, decision: Decision) -> tuple[str, str]:
    """(the task's one failure line, the run note's line) for a rejected branch."""
    who = decision.who(plan.handoff.approval_timeout)
    name = plan.name or Path(plan.project_path).name
    kept = f"branch {plan.work_branch} is kept in {plan.project_path}, nothing was pushed"
    next_step = (
        "Next: run again and answer within approval_timeout, or raise it"
        if decision.timed_out
        else "Next: change the branch by hand, or run again"
    )
    failure = f"rejected {who}: {kept}. {next_step}"
    note = f"**{name}**: REJECTED {who} · branch `{plan.work_branch}` kept, not pushed"
    return failure, note
