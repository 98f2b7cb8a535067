"""One project's outcome: agent calls counted, the summary built, rendered, written and loaded."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from autofix import gitops
from autofix.config import AutofixConfig, resolve
from autofix.costs import CostSource
from autofix.fixing.loop import Baseline, LoopOutcome, LoopState, commits_since, tool_counts
from autofix.fixing.plan import slug
from autofix.fixing.prepare import Prepared


class AgentCalls(BaseModel):
    calls: int = 0  # every attempt, including Airflow retries and feedback retries
    failed: int = 0
    cost_usd: float = 0.0  # of the calls whose cost is known
    cost_unknown_calls: int = 0  # calls of a model without a price (autofix.pricing)
    by_operation: dict[str, int] = Field(default_factory=dict)

    @property
    def cost_text(self) -> str:
        """``$0.0123``, saying so when calls of unknown cost are left out."""
        known = f"${self.cost_usd:.4f}"
        if not self.cost_unknown_calls:
            return known
        return f"{known} + {self.cost_unknown_calls} call(s) of unknown cost"


def agent_calls(interactions: Sequence[Any], project: str) -> AgentCalls:
    """Count this project's agent attempts among a run's audit interactions (by their cwd)."""
    calls = AgentCalls()
    by_operation: dict[str, int] = {}
    for item in interactions:
        if str(item.envelope.context.get("cwd") or "") != project:
            continue
        calls.calls += 1
        calls.failed += 0 if item.result.success else 1
        calls.cost_usd += item.result.cost_usd or 0.0
        if item.result.cost_source == CostSource.UNKNOWN:
            calls.cost_unknown_calls += 1
        by_operation[item.envelope.operation] = by_operation.get(item.envelope.operation, 0) + 1
    calls.cost_usd = round(calls.cost_usd, 6)
    calls.by_operation = by_operation
    return calls


class ProjectSummary(BaseModel):
    run_id: str
    project_path: str
    work_branch: str
    agent: str
    outcome: str  # a LoopState: clean | tripped | exhausted | failed
    reason: str
    errors_before: int | None
    errors_after: int | None
    by_tool_before: dict[str, int] = Field(default_factory=dict)
    by_tool_after: dict[str, int] = Field(default_factory=dict)
    iterations: int = 0  # verified fix attempts
    commits: list[gitops.Commit] = Field(default_factory=list)
    agent_calls: AgentCalls = Field(default_factory=AgentCalls)
    audit: str = ""
    report: str = ""
    finished_at: datetime = Field(default_factory=lambda: datetime.now(UTC))

    @property
    def ok(self) -> bool:
        return self.outcome == LoopState.CLEAN.value

    @property
    def agent_untested(self) -> bool:
        """Clean without a single agent call: a green run that says nothing about the agent."""
        return self.ok and self.agent_calls.calls == 0


NOT_CALLED = "already clean: the agent was not called"


def run_note(summary: ProjectSummary) -> str:
    """One Markdown line for the DAG run's note: outcome, issues before → after, commits,
    agent calls, cost."""
    before = "-" if summary.errors_before is None else str(summary.errors_before)
    after = "-" if summary.errors_after is None else str(summary.errors_after)
    outcome = NOT_CALLED if summary.agent_untested else summary.outcome.upper()
    calls = summary.agent_calls
    return (
        f"**{Path(summary.project_path).name}**: {outcome} · issues {before} → {after} · "
        f"{len(summary.commits)} commit(s) on `{summary.work_branch}` · "
        f"{calls.calls} agent call(s) ({summary.agent}) · {calls.cost_text}"
        + ("" if summary.ok else f" · {summary.reason}")
    )


def summarize(
    *,
    run_id: str,
    prepared: Prepared,
    baseline: Baseline | None,
    outcome: LoopOutcome | None,
    failures: Sequence[str],
    calls: AgentCalls,
    audit: str,
) -> ProjectSummary:
    """One project's outcome. A failed step before the fix wins over the loop's outcome."""
    plan = prepared.plan
    state, reason = LoopState.FAILED.value, "; ".join(failures) or "the checks never ran"
    if not failures and outcome is not None:
        state, reason = outcome.state.value, outcome.reason
        if outcome.state is LoopState.CLEAN and calls.calls == 0:
            reason = f"{NOT_CALLED} ({reason})"
    return ProjectSummary(
        run_id=run_id,
        project_path=plan.project_path,
        work_branch=plan.work_branch,
        agent=plan.agent,
        outcome=state,
        reason=reason,
        errors_before=baseline.snapshot.errors if baseline else None,
        errors_after=outcome.errors_after if outcome else None,
        by_tool_before=baseline.snapshot.by_tool if baseline else {},
        by_tool_after=outcome.by_tool_after if outcome else {},
        iterations=outcome.iterations if outcome else 0,
        commits=commits_since(plan.project_path, prepared.base_sha),
        agent_calls=calls,
        audit=audit,
    )


def audit_location(config: AutofixConfig) -> str:
    """Where this run's audit records are, as ``autofix report --store`` accepts it."""
    if config.audit.store == "s3":
        return f"s3://{config.audit.bucket}/{config.audit.prefix}"
    if config.audit.store == "memory":
        return "memory (not kept)"
    return str(resolve(config.audit.path))


def render_summary(summary: ProjectSummary) -> str:
    """A short aligned table for the task log and the demo's last screen."""
    before = "-" if summary.errors_before is None else str(summary.errors_before)
    after = "-" if summary.errors_after is None else str(summary.errors_after)
    ops = ", ".join(f"{op} {n}" for op, n in summary.agent_calls.by_operation.items())
    rows = [
        ("project", summary.project_path),
        ("branch", summary.work_branch),
        ("outcome", f"{summary.outcome.upper()}: {summary.reason}"),
        ("issues before", f"{before} ({tool_counts(summary.by_tool_before)})"),
        ("issues after", f"{after} ({tool_counts(summary.by_tool_after)})"),
        ("fix iterations", str(summary.iterations)),
        ("commits", str(len(summary.commits))),
        *[("", f"{c.sha[:8]} {c.subject}") for c in summary.commits],
        (
            "agent calls",
            f"{summary.agent_calls.calls} ({summary.agent_calls.failed} failed"
            + (f"; {ops})" if ops else ")"),
        ),
        ("cost", summary.agent_calls.cost_text),
        ("audit log", summary.audit),
        ("report", summary.report),
    ]
    width = max(len(name) for name, _ in rows)
    return "\n".join(f"{name:<{width}}  {value}".rstrip() for name, value in rows)


def write_summary(
    summary: ProjectSummary, runs_dir: str | Path, report_text: str
) -> ProjectSummary:
    """``<runs_dir>/<run>/<project>.json`` and ``.md`` (the table plus the audit report).

    Returns the summary with ``report`` set to the Markdown file.
    """
    directory = resolve(runs_dir) / slug(summary.run_id)
    directory.mkdir(parents=True, exist_ok=True)
    digest = hashlib.sha256(summary.project_path.encode()).hexdigest()[:8]
    name = f"{slug(Path(summary.project_path).name, 40)}-{digest}"
    markdown = directory / f"{name}.md"
    summary = summary.model_copy(update={"report": str(markdown)})
    markdown.write_text(
        f"# autofix: {summary.project_path}\n\n```\n{render_summary(summary)}\n```\n\n"
        f"## Agent calls (audit report for this run)\n\n{report_text}\n",
        encoding="utf-8",
    )
    (directory / f"{name}.json").write_text(summary.model_dump_json(indent=2), encoding="utf-8")
    return summary


def load_summaries(runs_dir: str | Path) -> list[ProjectSummary]:
    """Every summary under ``runs_dir``, oldest first (the demo prints the last run's)."""
    summaries = [
        ProjectSummary.model_validate_json(path.read_text(encoding="utf-8"))
        for path in Path(runs_dir).glob("*/*.json")
    ]
    return sorted(summaries, key=lambda s: s.finished_at)
