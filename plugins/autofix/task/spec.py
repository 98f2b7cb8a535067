"""What one agent task is: its rendered settings, who caused it, and the attempt policy it uses."""

from __future__ import annotations

import os
import shutil
import socket
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from pydantic import BaseModel

from autofix.agents.base import AgentFormat
from autofix.agents.limits import AgentLimits
from autofix.audit.recorder import AuditRecorder
from autofix.config import AutofixConfig, resolve
from autofix.notices import NoticeCode
from autofix.result import RetryStrategy
from autofix.validation.adaptive import AdaptiveAdvisor
from autofix.validation.policy import AttemptPolicy
from autofix.validation.strategies import check_strategy


@dataclass(frozen=True)
class TraceContext:
    """Who caused the call: the DAG run (trace) and the task try (causation)."""

    trace_id: str
    causation_id: str | None = None
    tenant_id: str = "default"
    # The worker that runs the task (Airflow's ti.hostname); this machine's name when not given.
    hostname: str = ""
    # The task instance, for the UI's links: a run id alone is not unique across DAGs.
    dag_id: str | None = None
    task_id: str | None = None
    map_index: int = -1
    try_number: int | None = None

    def __post_init__(self) -> None:
        if not self.hostname:
            object.__setattr__(self, "hostname", socket.gethostname())


@dataclass
class AgentTaskSpec:
    """Everything one agent task needs, already rendered (no templates left).

    ``agent_options`` are the agent format's own (e.g. ClaudeOptions); ``limits`` the agent's
    own limits and tools (turn cap, tools, permission mode, MCP servers, fallback model, extra
    CLI arguments), which the format maps onto its CLI; ``retry_strategy`` and
    ``constrained`` override ``validation.strategy`` / the schema-as-constraint choice.
    """

    agent: str
    prompt: str
    operation: str = ""
    command: list[str] | None = None
    cwd: str | None = None
    env: dict[str, str] = field(default_factory=dict)
    timeout: float | None = 3600.0
    idle_timeout: float | None = None
    grace: float = 10.0
    model: str | None = None
    agent_options: dict[str, Any] = field(default_factory=dict)
    limits: AgentLimits = field(default_factory=AgentLimits)
    resume_session_id: str | None = None
    output_schema: type[BaseModel] | str | None = None
    max_attempts: int | None = None
    retry_enabled: bool | None = None
    retry_strategy: str | None = None
    constrained: bool | None = None
    patterns: str | None = None
    # Where `make agent-clis` put the pinned CLIs (e.g. ".agents"): used only when asked, and
    # only for a CLI that is not on PATH.
    agent_clis_dir: str | None = None
    # What the CLI may report that fails the task although its result says success
    # (result.NoticeCode: denied_tool, mcp_server_failed, loop_detected, compacted).
    fail_on: tuple[NoticeCode, ...] = ()
    # Checks run after an attempt that claims success: Check objects or any item
    # autofix.verify.checks.as_checks takes ("pytest -q", "expect_changes", a callable, ...).
    verify: Sequence[object] = ()


def attempt_policy(
    spec: AgentTaskSpec,
    config: AutofixConfig,
    agent_format: AgentFormat,
    recorder: AuditRecorder | None,
) -> AttemptPolicy:
    """The validation policy for ``spec``: config, the task's overrides, ``auto`` resolved for
    the agent, completion-style feedback for text-completing models, and the adaptive advisor's
    audit history."""
    policy = AttemptPolicy.from_settings(
        config.validation, max_attempts=spec.max_attempts, retry_enabled=spec.retry_enabled
    )
    if spec.retry_strategy is not None:
        policy = replace(policy, strategy=check_strategy(spec.retry_strategy))
    policy = policy.resolved(agent_format.samples)
    changes: dict[str, Any] = {}
    if spec.constrained is not None:
        # Asked for explicitly: an endpoint that rejects the schema is an error, not a hint.
        changes["constrained"] = spec.constrained
        changes["schema_optional"] = False
    if agent_format.completes_text(spec.agent_options):
        changes["feedback_style"] = "completion"
    if policy.strategy == RetryStrategy.ADAPTIVE and recorder is not None:
        changes["advisor"] = AdaptiveAdvisor.from_store(recorder.store)
    return replace(policy, **changes) if changes else policy


def installed_cli(
    name: str, env: Mapping[str, str], agent_clis_dir: str | None
) -> tuple[str, bool] | None:
    """Where the CLI ``name`` runs from, and whether from ``agent_clis_dir``: PATH first (the
    user's own install wins, never switched silently), then
    ``<agent_clis_dir>/node_modules/.bin/<name>``; None when neither has it."""
    on_path = shutil.which(name, path=env.get("PATH") or os.environ.get("PATH"))
    if on_path:
        return on_path, False
    if agent_clis_dir:
        local = resolve(agent_clis_dir) / "node_modules" / ".bin" / name
        if local.exists():
            return str(local), True
    return None


def project_cli(
    agent_format: AgentFormat, env: Mapping[str, str], agent_clis_dir: str | None
) -> list[str] | None:
    """``<agent_clis_dir>/node_modules/.bin/<cli>`` when the user asked for the project's CLIs
    and the format's own command is not on PATH; None to keep the default command."""
    default = getattr(agent_format, "default_command", None)
    if not agent_clis_dir or not default:
        return None
    found = installed_cli(default[0], env, agent_clis_dir)
    if found is None or not found[1]:
        return None
    return [found[0], *default[1:]]
