"""One plan per project of a run: the run's params and the config resolved and validated."""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    field_validator,
    model_validator,
)

from autofix.agents.registry import coding_agents, format_class
from autofix.checks.tools import normalize_check
from autofix.config import AutofixConfig, resolve
from autofix.errors import FixingError

# Defaults a run's params may override, and the hooks file that configure_hooks writes.
HOOKS_FILE = ".pre-commit-config.yaml"
DEFAULT_SCENARIO = "sample_project"
DEFAULT_WORK_BRANCH = "autofix/fixes"
MAX_ITERATIONS = 30  # verified fix attempts a run may ask for


def slug(text: str, limit: int = 60) -> str:
    """A file-name-safe form of a run id or path."""
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", text).strip("_")[:limit] or "x"


class Timeouts(BaseModel):
    """Seconds per operation; an agent call past its timeout is killed (process group)."""

    model_config = ConfigDict(extra="forbid")

    configure_hooks: float = Field(default=600, gt=0)
    discover_tests: float = Field(default=300, gt=0)
    fix: float = Field(default=1800, gt=0)
    checks: float = Field(default=600, gt=0)  # each check tool separately


PushMode = Literal["none", "branch", "pull_request"]


class Handoff(BaseModel):
    """What happens to the work branch after the summary: a person's approval (``approval``,
    rejected after ``approval_timeout`` seconds without an answer), then ``push``: nothing, the
    branch to the remote of Connection ``git_conn_id``, or the branch and a pull request."""

    model_config = ConfigDict(extra="forbid")

    approval: bool = False
    approval_timeout: float = Field(default=24 * 3600, gt=0)
    push: PushMode = "none"
    git_conn_id: str | None = None

    @model_validator(mode="after")
    def _remote_named(self) -> Handoff:
        if self.push != "none" and not (self.git_conn_id or "").strip():
            raise ValueError(
                f"push is {self.push} but git_conn_id is empty: set git_conn_id to a Connection "
                "whose host is the remote URL (and password a token), or set push to none"
            )
        return self


class ProjectPlan(BaseModel):
    """Everything one project's run needs, resolved from the run's params and the config."""

    project_path: str
    work_branch: str = DEFAULT_WORK_BRANCH
    agent: str = "sim"
    model: str | None = None
    max_iterations: int = Field(default=5, ge=1, le=MAX_ITERATIONS)  # the fix's attempts
    checks: list[str] = Field(default_factory=list)  # empty: discovered, else detected
    timeouts: Timeouts = Field(default_factory=Timeouts)
    agent_options: dict[str, Any] = Field(default_factory=dict)
    test_config_max_age_hours: float = Field(default=24.0, ge=0)
    index: int = 0
    name: str = ""  # how the run shows the project (the map index): its folder name, unique
    agent_clis_dir: str | None = None  # fixing.agent_clis_dir: where a CLI not on PATH is found
    handoff: Handoff = Field(default_factory=Handoff)

    @field_validator("agent")
    @classmethod
    def _known_agent(cls, value: str) -> str:
        agents = coding_agents()
        if value not in agents:
            raise ValueError(f"unknown agent {value!r}; choose from: {', '.join(agents)}")
        return value

    @field_validator("checks")
    @classmethod
    def _known_checks(cls, value: list[str]) -> list[str]:
        return [normalize_check(check) for check in value]


def names_a_project(params: Mapping[str, Any]) -> bool:
    """Whether the run's params name a project of their own (else the config's are fixed)."""
    return bool(str(params.get("project_path") or "").strip() or params.get("projects"))


def empty_project_hint(config: AutofixConfig) -> str:
    """What an empty project_path does, as the end of a next step."""
    if config.fixing.projects:
        return "leave it empty to fix fixing.projects of config/autofix.yaml"
    if config.fixing.scratch_from:
        return f"leave it empty for a fresh copy of {config.fixing.scratch_from}"
    return "set fixing.projects or fixing.scratch_from in config/autofix.yaml"


def _project_entries(params: Mapping[str, Any], config: AutofixConfig) -> list[dict[str, Any]]:
    entries: list[dict[str, Any]] = []
    single = str(params.get("project_path") or "").strip()
    if single:
        entries.append({"project_path": single})
    for item in params.get("projects") or []:
        if isinstance(item, str) and item.strip():
            entries.append({"project_path": item.strip()})
        elif isinstance(item, Mapping) and item.get("project_path"):
            entries.append(dict(item))
        else:
            raise FixingError(
                f"projects: {item!r} is neither a path nor a mapping with project_path"
            )
    if not entries:
        entries = [{"project_path": path} for path in config.fixing.projects]
    return entries


def plan_projects(
    params: Mapping[str, Any],
    config: AutofixConfig,
    *,
    run_id: str,
) -> list[ProjectPlan]:
    """One plan per project named by the run (``project_path``, ``projects``) or the config.

    Per-project mappings in ``projects`` may override any param, e.g.
    ``{"project_path": "/repos/api", "agent": "codex"}``. With the ``sim`` agent the
    scenario and an attempt-counter directory private to this run are filled in, so every
    run replays its scenario from the start.
    """
    entries = _project_entries(params, config)
    if not entries:
        raise FixingError(
            "no project to fix: the run names none and config/autofix.yaml has neither "
            "fixing.projects nor fixing.scratch_from. Next: set project_path in the trigger "
            "form, or one of those keys"
        )
    seen: set[str] = set()
    names: set[str] = set()
    plans = []
    for index, entry in enumerate(entries):
        merged = {**params, **entry}
        path = str(resolve(str(merged["project_path"])).resolve())
        if path in seen:
            raise FixingError(f"project {path} is listed twice; each project runs once per run")
        seen.add(path)
        name = str(merged.get("name") or Path(path).name or path)
        if name in names:  # two projects in folders of the same name
            name = f"{name} ({index + 1})"
        names.add(name)
        agent = str(merged.get("agent") or "sim")
        max_iterations = int(merged.get("max_iterations") or 5)
        options = {
            **(format_class(agent).default_options if agent in coding_agents() else {}),
            **dict(merged.get("agent_options") or {}),
        }
        if agent == "sim":
            options.setdefault("scenario", str(merged.get("scenario") or DEFAULT_SCENARIO))
            options.setdefault(
                "state_dir",
                str(resolve(config.fixing.cache_dir) / "sim-state" / slug(run_id) / str(index)),
            )
        timeouts = {
            name: merged[f"{name}_timeout"]
            for name in Timeouts.model_fields
            if merged.get(f"{name}_timeout") is not None
        }
        max_age = merged.get("test_config_max_age_hours")
        try:
            handoff = _handoff(merged, config)
            plan = ProjectPlan(
                project_path=path,
                work_branch=str(merged.get("work_branch") or DEFAULT_WORK_BRANCH),
                agent=agent,
                model=merged.get("model") or None,
                max_iterations=max_iterations,
                checks=list(merged.get("checks") or []),
                timeouts=Timeouts(**timeouts),
                agent_options=options,
                test_config_max_age_hours=(
                    config.fixing.test_config_max_age_hours if max_age is None else max_age
                ),
                index=index,
                name=name,
                agent_clis_dir=config.fixing.agent_clis_dir,
                handoff=handoff,
            )
        except (ValidationError, ValueError) as exc:
            raise FixingError(f"project {path}: {exc}") from exc
        plans.append(plan)
    return plans


def _handoff(merged: Mapping[str, Any], config: AutofixConfig) -> Handoff:
    """The approval and push settings: the run's (or the project's own), else fixing's."""
    fixing = config.fixing

    def pick(name: str, default: Any) -> Any:
        value = merged.get(name)
        return default if value is None else value

    try:
        return Handoff(
            approval=pick("approval", fixing.approval),
            approval_timeout=pick("approval_timeout", fixing.approval_timeout_seconds),
            push=pick("push", fixing.push),
            git_conn_id=pick("git_conn_id", fixing.git_conn_id) or None,
        )
    except ValidationError as exc:  # one line per problem, not pydantic's report
        problems = [
            ".".join(str(part) for part in error["loc"])
            + ": " * bool(error["loc"])
            + str(error["msg"]).removeprefix("Value error, ")
            for error in exc.errors()
        ]
        raise ValueError("; ".join(problems)) from None
