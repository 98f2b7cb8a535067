"""Each step of the ``autonomous_fixing`` DAG as plain functions: values in, values out.

``plan → prepare → configure_hooks → discover_tests → check_0 → fix → summary → approval →
publish``; ``fix`` is one agent task whose checks (``autofix.verify``) send what is left back
to the agent after each attempt.

The operators (``autofix.operators.fixing``) pull a step's inputs from XCom, call its function
here and push what it returns. A step that cannot go on raises ``FixingError`` with what to do
next; the operator turns that into the task's failure. Log lines go to the ``log`` each step is
given (the task log, under Airflow).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Protocol

from autofix.audit.stores import build_store
from autofix.audit.usage_report import build_report, render
from autofix.config import AutofixConfig, resolve
from autofix.errors import FixingError, GitError
from autofix.fixing.approval import ApprovalRequest, Decision, approval_request, gate_skip_reason
from autofix.fixing.loop import (
    Baseline,
    commits_since,
    current,
    fix_checks,
    outcome_of,
    snapshot,
    tool_counts,
)
from autofix.fixing.plan import (
    HOOKS_FILE,
    ProjectPlan,
    empty_project_hint,
    names_a_project,
    plan_projects,
    slug,
)
from autofix.fixing.preflight import CliFound, Problem, preflight
from autofix.fixing.prepare import Prepared, prepare, verify_hooks
from autofix.fixing.prompts import discover_prompt, fix_prompt, hooks_prompt
from autofix.fixing.publish import GitRemote, Published, publish, publish_skip_reason
from autofix.fixing.summary import (
    NOT_CALLED,
    ProjectSummary,
    agent_calls,
    audit_location,
    render_summary,
    summarize,
    write_summary,
)
from autofix.fixing.testconfig import TestConfig, TestConfigCache, choose_checks
from autofix.gitops import Commit, init_scratch_copy
from autofix.redact import redact
from autofix.result import ParseResult
from autofix.verify.checks import Check


class StepLog(Protocol):
    """What a step logs through: a ``logging.Logger`` or Airflow's task logger."""

    def info(self, message: Any, /, *args: Any) -> Any: ...

    def warning(self, message: Any, /, *args: Any) -> Any: ...


@dataclass(frozen=True)
class PlannedCall:
    """What to ask this project's agent; ``prompt`` None: no call is needed, for ``reason``.

    A fix call also has ``head`` (HEAD before it: the commits after it are the fix's), the
    ``verify`` checks each attempt must pass and ``max_attempts``."""

    prepared: Prepared
    prompt: str | None
    timeout: float
    reason: str = ""
    head: str = ""
    verify: tuple[Check, ...] = ()
    max_attempts: int | None = None


# -- plan, prepare ------------------------------------------------------------------------------


def plan_step(
    params: Mapping[str, Any],
    config: AutofixConfig,
    *,
    run_id: str,
    log: StepLog,
) -> list[ProjectPlan]:
    """The run's projects (params, else ``fixing.projects``, else a fresh copy of
    ``fixing.scratch_from``), one plan each, each checked before any agent runs (project, CLI,
    credentials: :mod:`autofix.fixing.preflight`) and logged. Raises FixingError on the first
    problem, in one line that ends with the next step."""
    params = dict(params)
    if not names_a_project(params) and not config.fixing.projects and config.fixing.scratch_from:
        params["project_path"] = str(scratch_copy(config, run_id, log))
    plans = plan_projects(params, config, run_id=run_id)
    hint = empty_project_hint(config)
    for plan in plans:
        found = preflight(Path(plan.project_path), plan.agent, plan.agent_clis_dir, empty_hint=hint)
        if isinstance(found, Problem):
            raise FixingError(found.line())
        cli = f", CLI {found.version} at {found.path}" if isinstance(found, CliFound) else ""
        log.info(
            "project %d: %s (agent %s%s, branch %s, max_iterations %d, checks %s)",
            plan.index,
            plan.project_path,
            plan.agent,
            cli,
            plan.work_branch,
            plan.max_iterations,
            ", ".join(plan.checks) or "discovered",
        )
    return plans


def scratch_copy(config: AutofixConfig, run_id: str, log: StepLog) -> Path:
    """This run's own copy of ``fixing.scratch_from``: a new repository, so every run finds
    the template's problems again (kept when the plan task runs again for the same run)."""
    source = resolve(str(config.fixing.scratch_from))
    copy = resolve(config.fixing.cache_dir) / "scratch" / slug(run_id) / source.name
    if (copy / ".git").is_dir():
        log.info("fresh copy of %s for this run: %s (made by an earlier try)", source, copy)
        return copy
    try:
        sha = init_scratch_copy(source, copy, exclude=config.fixing.scratch_exclude)
    except GitError as exc:
        raise FixingError(
            f"fixing.scratch_from cannot be copied: {exc}. Next: point fixing.scratch_from at "
            "a folder on the worker"
        ) from exc
    log.info("fresh copy of %s for this run: %s (initial commit %s)", source, copy, sha[:12])
    return copy


def prepare_step(plan: ProjectPlan, log: StepLog) -> Prepared:
    """A clean tree on the work branch (created, or resumed when it exists)."""
    prepared = prepare(plan)
    if prepared.repo_created:
        log.warning(
            "%s was no git repository: made it one, its files the first commit",
            prepared.plan.project_path,
        )
    how = "created" if prepared.branch_created else "resumed"
    log.info(
        "%s: clean, branch %s %s at %s",
        prepared.plan.project_path,
        prepared.plan.work_branch,
        how,
        prepared.base_sha[:12],
    )
    return prepared


# -- configure_hooks --------------------------------------------------------------------------


def hooks_call(prepared: Prepared) -> PlannedCall:
    """Ask for pre-commit hooks unless the project has its hooks file already."""
    plan = prepared.plan
    timeout = plan.timeouts.configure_hooks
    project = Path(plan.project_path)
    if (project / HOOKS_FILE).is_file():
        return PlannedCall(prepared, None, timeout, f"{HOOKS_FILE} already exists in {project}")
    checks = plan.checks or choose_checks(plan, None)[0]
    return PlannedCall(prepared, hooks_prompt(plan, checks), timeout)


def hooks_verified(prepared: Prepared, log: StepLog) -> None:
    """Trust the file, not the agent: it exists, and what the agent left uncommitted is
    committed. Raises FixingError (no file) or GitError."""
    project = Path(prepared.plan.project_path)
    sha = verify_hooks(project)
    if sha:
        log.warning("the agent left %s uncommitted; committed it as %s", HOOKS_FILE, sha)
    log.info("verified: %s exists", project / HOOKS_FILE)


# -- discover_tests ---------------------------------------------------------------------------


def discover_call(prepared: Prepared, cache: TestConfigCache) -> PlannedCall:
    """Ask how the tests run unless the cache holds a fresh answer."""
    plan = prepared.plan
    lookup = cache.get(plan.project_path)
    timeout = plan.timeouts.discover_tests
    if lookup.config is not None:
        return PlannedCall(prepared, None, timeout, f"test config cache {lookup.reason}")
    return PlannedCall(prepared, discover_prompt(plan), timeout, f"cache: {lookup.reason}")


def cached_or_call(call: PlannedCall, cache: TestConfigCache) -> TestConfig | PlannedCall:
    """At run time: the cached answer a planned no-call relied on, else the call to make
    (the planned one, or a new one when the entry went stale meanwhile)."""
    if call.prompt is not None:
        return call
    lookup = cache.get(call.prepared.plan.project_path)
    if lookup.config is not None:
        return lookup.config
    return replace(call, prompt=discover_prompt(call.prepared.plan))


def keep_test_config(plan: ProjectPlan, cache: TestConfigCache, data: Any, log: StepLog) -> None:
    """The agent's answer, validated and cached. A "success" without a valid answer is not
    one (fail-safe): FixingError with the field errors."""
    try:
        test_config = TestConfig.model_validate(data)
    except ValueError as exc:
        raise FixingError(str(exc)) from exc
    path = cache.put(plan.project_path, test_config)
    log.info("test config %s cached at %s", test_config.model_dump(), path)


# -- check_0, fix ---------------------------------------------------------------------------


def check_step(plan: ProjectPlan, test_config: TestConfig | None, log: StepLog) -> Baseline:
    """Run the real check tools before the fix: the checks chosen from the params,
    discover_tests' answer or the files."""
    checks, source = choose_checks(plan, test_config)
    log.info("checks (from %s): %s", source, ", ".join(checks))
    found = snapshot(plan.project_path, checks, plan.timeouts.checks)
    log.info("::group::%d error(s): %s", found.errors, tool_counts(found.by_tool))
    log.info("%s", found.rendered)
    log.info("::endgroup::")
    for problem in found.tool_problems:
        log.warning("check tool problem: %s", problem)
    return Baseline(checks=checks, max_iterations=plan.max_iterations, snapshot=found)


def fix_call(
    prepared: Prepared, baseline: Baseline | None, test_config: TestConfig | None
) -> PlannedCall:
    """The fix prompt from the errors as they are now (check_0's, or a fresh snapshot when an
    earlier try committed); each attempt must pass every check and commit, up to
    ``max_iterations`` attempts. No call when the checks are clean."""
    plan = prepared.plan
    timeout = plan.timeouts.fix
    if baseline is None:
        return PlannedCall(prepared, None, timeout, "check_0 has no result (it did not run)")
    now = current(baseline, plan.project_path, plan.timeouts.checks)
    if now.clean:
        return PlannedCall(prepared, None, timeout, "all checks pass")
    return PlannedCall(
        prepared,
        fix_prompt(plan, now, test_config),
        timeout,
        f"{now.snapshot.errors} error(s): {tool_counts(now.snapshot.by_tool)}",
        head=now.snapshot.head,
        verify=fix_checks(now, plan.timeouts.checks),
        max_attempts=plan.max_iterations,
    )


def fix_commits(call: PlannedCall, log: StepLog) -> list[Commit]:
    """The commits the fix made in this try."""
    commits = commits_since(call.prepared.plan.project_path, call.head)
    for commit in commits:
        log.info("new commit %s %s", commit.sha[:12], redact(commit.subject))
    return commits


# -- summary ----------------------------------------------------------------------------------


def summary_failures(
    baseline: Baseline | None, failed: Callable[[str], ParseResult | None]
) -> list[str]:
    """Why the project never reached its fix: the failed agent step's message, else which
    steps to read. ``failed(step)`` is a step's failed result."""
    if baseline is not None:
        return []
    found = [
        result.error_message
        for name in ("configure_hooks", "discover_tests")
        if (result := failed(name)) is not None
    ]
    return found or ["configure_hooks, discover_tests or check_0 failed; see their logs"]


def summary_step(
    config: AutofixConfig,
    *,
    run_id: str,
    prepared: Prepared,
    baseline: Baseline | None,
    fix: ParseResult | None,
    failures: list[str],
    log: StepLog,
) -> ProjectSummary:
    """The project's outcome (check_0 before, the fix's last verified attempt after) with its
    agent calls from the run's audit records, written under ``fixing.runs_dir`` with the run's
    audit report, and logged. ``fix`` None: the fix did not run (skipped, or it failed
    without a result)."""
    store = build_store(config.audit)
    plan = prepared.plan
    project = plan.project_path
    interactions = [
        item
        for item in store.by_trace(run_id)
        if str(item.envelope.context.get("cwd") or "") == project
    ]
    report = build_report(interactions, store=store.describe(), since=None)
    outcome = None
    if baseline is not None:
        # Without a fix result, an earlier try of the fix may still have committed.
        now = baseline if fix is not None else current(baseline, project, plan.timeouts.checks)
        outcome = outcome_of(now, fix)
        log.info("loop: %s: %s", outcome.state.value, outcome.reason)
    summary = summarize(
        run_id=run_id,
        prepared=prepared,
        baseline=baseline,
        outcome=outcome,
        failures=failures,
        calls=agent_calls(interactions, project),
        audit=audit_location(config),
    )
    report_text = render(report, "markdown")
    summary = write_summary(summary, config.fixing.runs_dir, report_text)
    log.info("summary:\n%s", render_summary(summary))
    if summary.agent_untested:
        log.warning("%s: this run says nothing about agent %s", NOT_CALLED, summary.agent)
    # The report file is on the worker; the log is where the UI can show it.
    log.info("::group::agent calls of this run (the report in %s)", summary.report)
    log.info("%s", report_text)
    log.info("::endgroup::")
    return summary


# -- approval, publish --------------------------------------------------------------------------


def approval_step(
    prepared: Prepared, summary: ProjectSummary | None, log: StepLog
) -> ApprovalRequest | None:
    """What to ask a person about the project's branch; None (logged why) when nobody is
    asked: approval is off, or the branch holds nothing from this run."""
    reason = gate_skip_reason(prepared.plan, summary)
    if reason is not None or summary is None:
        log.info("no approval asked: %s", reason)
        return None
    request = approval_request(prepared, summary)
    log.info("asking: %s\n%s", request.subject, request.body)
    return request


def publish_step(
    prepared: Prepared,
    summary: ProjectSummary | None,
    decision: Decision | None,
    remote_for: Callable[[str], GitRemote],
    log: StepLog,
) -> Published:
    """Do what ``push`` says once the clean project's branch is approved (or approval is off);
    ``remote_for(git_conn_id)`` reads the remote. Raises FixingError."""
    plan = prepared.plan
    reason = publish_skip_reason(plan, summary, decision)
    if reason is not None or summary is None:
        log.info("not pushed: %s", reason)
        return Published(push=plan.handoff.push, skipped=str(reason))
    remote = remote_for(str(plan.handoff.git_conn_id))
    log.info("pushing %s to %s", plan.work_branch, redact(remote.url))
    published = publish(prepared, summary, decision, remote)
    log.info("pushed %s at %s", plan.work_branch, str(published.pushed)[:12])
    if published.pull_request is not None:
        pull = published.pull_request
        log.info(
            "pull request #%d %s: %s",
            pull.number,
            "found open" if pull.existed else "opened",
            pull.url,
        )
    return published
