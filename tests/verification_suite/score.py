"""Run one case through ``AgentTask`` with the scripted agent, with or without its ``verify=``,
and count what came out against the ground truth."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from autofix.config import AutofixConfig
from autofix.task.agent_task import AgentTask, AgentTaskSpec, TraceContext
from autofix.verify.checks import as_checks
from verification_suite.cases import CALLABLES, FAMILIES, Case
from verification_suite.projects import make_project

MAX_ATTEMPTS = 3


def resolve_verify(verify: Sequence[Any], project: Path) -> list[Any]:
    """A case's verify items, with ``{"callable": NAME}`` bound to the project."""
    items: list[Any] = []
    for item in verify:
        if isinstance(item, dict) and "callable" in item:
            items.append(CALLABLES[item["callable"]](project))
        else:
            items.append(item)
    return items


@dataclass(frozen=True)
class Outcome:
    case: str
    family: str
    verified: bool  # ran with the case's verify=
    success: bool  # what autofix reported
    done: bool  # the ground truth at the end: the work is really done
    attempts: int  # agent calls
    failed_checks: tuple[str, ...]  # the last verification's failed checks
    error: str | None

    @property
    def verdict(self) -> str:
        if self.success:
            return "true_success" if self.done else "false_success"
        return "false_failure" if self.done else "caught"

    @property
    def recovered(self) -> bool:
        return self.success and self.done and self.attempts > 1


def run_case(case: Case, workdir: Path, *, verified: bool) -> Outcome:
    """One run of ``case`` in a fresh project under ``workdir``."""
    project = make_project(case.project, workdir / "project")
    scenario = workdir / "scenario.yaml"
    scenario.write_text(case.scenario_yaml())
    spec = AgentTaskSpec(
        agent="sim",
        prompt=case.prompt,
        operation=case.name,
        cwd=str(project),
        agent_options={"scenario": str(scenario), "state_dir": str(workdir / "state")},
        max_attempts=MAX_ATTEMPTS,
        verify=as_checks(resolve_verify(case.verify, project)) if verified else (),
        timeout=120.0,
    )
    task = AgentTask(
        spec,
        config=AutofixConfig(),
        trace=TraceContext(trace_id=f"suite-{case.name}"),
        log_line=lambda line: None,
    )
    result = task.run()
    attempts = int(result.attempts or 1)
    done = case.done_at is not None and attempts >= case.done_at
    last = result.verification[-1] if result.verification else None
    return Outcome(
        case=case.name,
        family=case.family,
        verified=verified,
        success=bool(result.success),
        done=done,
        attempts=attempts,
        failed_checks=tuple(c.name for c in last.failed) if last else (),
        error=None if result.success else (result.error_message or "")[:300],
    )


@dataclass(frozen=True)
class Figures:
    cases: int
    false_successes: int
    false_failures: int
    caught: int
    recovered: int
    agent_calls: int
    honest: int  # cases whose work is really done at the end of some run


def figures(outcomes: Iterable[Outcome]) -> Figures:
    items = list(outcomes)
    verdicts = [o.verdict for o in items]
    return Figures(
        cases=len(items),
        false_successes=verdicts.count("false_success"),
        false_failures=verdicts.count("false_failure"),
        caught=verdicts.count("caught"),
        recovered=sum(o.recovered for o in items),
        agent_calls=sum(o.attempts for o in items),
        honest=sum(o.done for o in items),
    )


def by_family(outcomes: Sequence[Outcome]) -> dict[str, Figures]:
    return {f: figures(o for o in outcomes if o.family == f) for f in FAMILIES}
