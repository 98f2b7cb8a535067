"""autonomous_fixing: an AI agent fixes a repository's lint, type and test failures, one verified
commit at a time, until the checks pass or it stops making progress.

    plan ─► fix_project[i] (one mapped group per project, its map index named after it):
              prepare → configure_hooks → discover_tests → check_0 → fix → summary
                → approval → publish

Every agent call (configure_hooks, discover_tests, fix) is its own task with its own log.
``fix`` skips when check_0 is clean; else after each of its attempts the checks run again and a
new commit is expected (``verify=``), and what fails is sent back to the agent, until the checks
pass, ``max_iterations`` attempts are used or two attempts in a row fail with the same errors.
With ``approval`` on, a person then
approves or rejects the work branch (Browse → Required Actions; it waits without a worker slot,
and no answer within ``approval_timeout`` rejects it); ``publish`` does what ``push`` says:
nothing, push the branch to the remote of Connection ``git_conn_id``, or open a pull request.
The logic lives in ``autofix.fixing``.
"""

from __future__ import annotations

from datetime import timedelta

import pendulum
from airflow.sdk import DAG, Param, task_group

from autofix.agents.registry import coding_agents
from autofix.checks.model import KNOWN_CHECKS
from autofix.config import load_config
from autofix.fixing.plan import DEFAULT_SCENARIO, DEFAULT_WORK_BRANCH, MAX_ITERATIONS, Timeouts
from autofix.operators.approval import ApprovalGateOperator, PublishOperator
from autofix.operators.fixing import (
    MAP_INDEX_TEMPLATE,
    CheckOperator,
    ConfigureHooksOperator,
    DiscoverTestsOperator,
    FixOperator,
    PlanProjectsOperator,
    PrepareOperator,
    SummaryOperator,
)

CONFIG = load_config()  # schedule, retries, approval and push
# Transient agent failures (usage or rate limit, timeout) raise ordinary exceptions: retried here.
AGENT_RETRIES = {
    "retries": CONFIG.fixing.agent_retries,
    "retry_delay": timedelta(seconds=CONFIG.fixing.agent_retry_delay_seconds),
    "retry_exponential_backoff": 2.0,
    "max_retry_delay": timedelta(hours=1),
}
TIMEOUTS = Timeouts()


def _timeout(name: str, default: float, what: str) -> Param:
    return Param(
        int(default),
        type="integer",
        minimum=1,
        section="Timeouts (seconds)",
        title=name,
        description=f"Seconds before {what} is stopped (and retried if transient).",
    )


# Trigger form (Airflow 3.3 React UI): a param is *required* when its schema has a "type" that
# does not include "null" (ui/src/components/FlexibleForm/isParamRequired.tsx), and a required
# field whose value is null, undefined or "" blocks the Trigger button. Cleared fields are sent
# as null. So every optional field is typed ["null", ...] and the code reads None as "not set".
# See docs/ui-research.md, point 1.
with DAG(
    dag_id="autonomous_fixing",
    description="An AI agent fixes lint, type and test failures, one verified commit at a time",
    schedule=CONFIG.schedule,
    start_date=pendulum.datetime(2025, 1, 1, tz="UTC"),
    catchup=False,
    max_active_runs=4,
    tags=["autofix", "ai-agent"],
    doc_md=__doc__,
    params={
        "project_path": Param(
            None,
            type=["null", "string"],
            title="Project path",
            description="A git repository on the worker. Empty: the projects in "
            "fixing.projects of config/autofix.yaml (make up: a scratch sample project).",
        ),
        "projects": Param(
            None,
            type=["null", "array"],
            items={"type": ["string", "object"]},  # a JSON editor: paths or objects
            title="More projects",
            description='Fixed in parallel: paths, or objects like {"project_path": "/repos/api", '
            '"agent": "codex"} that override any setting for that project ("name" sets how the '
            "run shows it; default: its folder name). Empty: none.",
        ),
        "work_branch": Param(
            DEFAULT_WORK_BRANCH,
            type="string",
            minLength=1,
            title="Work branch",
            description="The branch the agent commits on; created from the current HEAD, or "
            "resumed when it exists.",
        ),
        "agent": Param(
            "sim",
            type="string",
            enum=list(coding_agents()),
            title="Agent",
            description="The coding agent CLI: sim is the scripted stand-in (no model, no key).",
        ),
        "model": Param(
            None,
            type=["null", "string"],
            title="Model",
            description="The agent's model name. Empty: the agent's default.",
        ),
        "max_iterations": Param(
            5,
            type="integer",
            minimum=1,
            maximum=MAX_ITERATIONS,
            title="Max iterations",
            description="Fix attempts at most: after each, the checks run and what fails goes "
            "back to the agent.",
        ),
        "checks": Param(
            None,
            type=["null", "array"],
            items={"type": "string", "enum": list(KNOWN_CHECKS)},
            examples=list(KNOWN_CHECKS),  # a multi-select of these
            title="Checks",
            description="The check tools to run. Empty: what discover_tests finds (else "
            "detected from the files).",
        ),
        "configure_hooks_timeout": _timeout(
            "configure_hooks", TIMEOUTS.configure_hooks, "the pre-commit hooks agent call"
        ),
        "discover_tests_timeout": _timeout(
            "discover_tests", TIMEOUTS.discover_tests, "the test discovery agent call"
        ),
        "fix_timeout": _timeout("fix (each attempt)", TIMEOUTS.fix, "one fix agent call"),
        "checks_timeout": _timeout("checks (each tool)", TIMEOUTS.checks, "one check tool"),
        "test_config_max_age_hours": Param(
            CONFIG.fixing.test_config_max_age_hours,
            type="number",
            minimum=0,
            title="Reuse discovered test setup for (hours)",
            description="A test setup discover_tests found this recently is reused without an "
            "agent call; 0 always asks again.",
        ),
        "approval": Param(
            CONFIG.fixing.approval,
            type="boolean",
            section="Approval and push",
            title="Ask for approval",
            description="After each clean project's summary, a person approves or rejects its "
            "work branch (Browse → Required Actions) before anything is pushed.",
        ),
        "push": Param(
            CONFIG.fixing.push,
            type="string",
            enum=["none", "branch", "pull_request"],
            section="Approval and push",
            title="On approval",
            description="none: the branch stays on the worker; branch: push it to the remote of "
            "the git connection; pull_request: push it and open a pull request. Only a clean "
            "project is pushed.",
        ),
        "git_conn_id": Param(
            CONFIG.fixing.git_conn_id,
            type=["null", "string"],
            section="Approval and push",
            title="Git connection",
            description="A Connection: host = the remote URL, password = a token (never put it "
            "in the URL); extra api_url, repository, base_branch for pull requests. Needed "
            "unless push is none.",
        ),
        "approval_timeout": Param(
            CONFIG.fixing.approval_timeout_seconds,
            type="integer",
            minimum=1,
            section="Approval and push",
            title="Approval timeout (seconds)",
            description="No answer this long rejects the branch: it is kept, not pushed.",
        ),
        "scenario": Param(
            DEFAULT_SCENARIO,
            type=["null", "string"],
            section="Scripted agent (sim)",
            title="Scenario",
            description="A bundled scenario name or a YAML path; see docs/simulator.md. "
            "Empty: sample_project.",
        ),
        "agent_options": Param(
            None,
            type=["null", "object"],
            section="Advanced",
            title="Agent options",
            description='Passed to the agent CLI, e.g. {"permission_mode": "acceptEdits"}. '
            "Empty: none.",
        ),
    },
) as dag:
    plan = PlanProjectsOperator(task_id="plan")

    # Every task of a project shows the project's name as its map index, not 0, 1, ...
    @task_group(group_id="fix_project", default_args={"map_index_template": MAP_INDEX_TEMPLATE})
    def fix_project(project: dict[str, object]) -> None:
        prepare = PrepareOperator(task_id="prepare", plan=project)
        hooks = ConfigureHooksOperator(task_id="configure_hooks", **AGENT_RETRIES)
        discover = DiscoverTestsOperator(task_id="discover_tests", **AGENT_RETRIES)
        check = CheckOperator(task_id="check_0")
        fix = FixOperator(task_id="fix", **AGENT_RETRIES)
        summary = SummaryOperator(task_id="summary")
        approval = ApprovalGateOperator(task_id="approval")
        prepare >> hooks >> discover >> check >> fix >> summary >> approval
        approval >> PublishOperator(task_id="publish")

    fix_project.expand(project=plan.output)
