"""What the agent is asked at each step: configure_hooks, discover_tests and fix."""

from __future__ import annotations

import json
from collections.abc import Sequence

from autofix.checks.model import KNOWN_CHECKS
from autofix.fixing.loop import Baseline
from autofix.fixing.plan import HOOKS_FILE, ProjectPlan
from autofix.fixing.testconfig import TestConfig


def hooks_prompt(plan: ProjectPlan, checks: Sequence[str]) -> str:
    """The configure_hooks request: one committed pre-commit file of local hooks."""
    tools = ", ".join(checks) if checks else "the project's linters, type checker and tests"
    return (
        f"Set up pre-commit hooks for the project in {plan.project_path}.\n"
        f"Create `{HOOKS_FILE}` at the repository root with hooks for: {tools}. Use local "
        "hooks (`repo: local`, `language: system`) so they run the tools already installed, "
        "and do not install anything. Commit the file with git, in one commit, with a "
        "message saying what it adds. Do not change any other file."
    )


def discover_prompt(plan: ProjectPlan) -> str:
    """The discover_tests request: read only, answered with one ``TestConfig`` JSON object."""
    fields = json.dumps(TestConfig.model_json_schema()["properties"], indent=None)
    return (
        f"Discover how the tests and checks of the project in {plan.project_path} are run. "
        "Read its configuration files; do not change any file. Answer with one JSON object "
        f"only, with these fields: {fields}. `checks` lists the tools that apply to this "
        f"project, chosen from: {', '.join(KNOWN_CHECKS)}."
    )


def fix_prompt(plan: ProjectPlan, baseline: Baseline, test_config: TestConfig | None) -> str:
    """The fix request: the grouped errors, what the checks are, and the one rule (commit).
    The checks' errors after each attempt come back as feedback (``autofix.verify``)."""
    lines = [
        f"Fix the failing checks of the project in {plan.project_path} "
        f"(git branch {plan.work_branch}).",
        "",
        f"Checks that must pass: {', '.join(baseline.checks)}.",
    ]
    if test_config is not None:
        lines.append(f"Tests run with: {test_config.test_command}")
    lines += [
        "",
        "Current problems, most urgent first:",
        baseline.snapshot.rendered,
        "",
        "Rules:",
        "- Fix the code, not the checks: do not disable rules, skip tests or add ignores.",
        "- Keep changes small. Fixing the first problem(s) is fine; the checks run again after "
        "you and what is left comes back to you.",
        "- When done, commit your changes with git in ONE new commit whose message says what "
        "you fixed. A fix without a new commit counts as no progress.",
    ]
    return "\n".join(lines)
