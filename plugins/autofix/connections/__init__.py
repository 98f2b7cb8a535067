"""Agent Connections: one Airflow connection type per agent family (docs/connections.md).

``connection_types()`` is the provider info's ``connection-types`` (each with its form fields
and field behaviour, which Airflow 3's Connection form reads without importing a hook);
``connection_for_agent`` is the type an agent's ``conn_id`` is read as.
"""

from __future__ import annotations

from typing import Any

from autofix.connections.base import AgentConnection, AgentSettings, ConnectionValues
from autofix.connections.claude import ClaudeCodeConnection
from autofix.connections.codex import CodexConnection
from autofix.connections.gemini import GeminiCliConnection
from autofix.connections.openai import OpenAIConnection
from autofix.errors import ConfigError

CONNECTIONS: tuple[type[AgentConnection], ...] = (
    ClaudeCodeConnection,
    CodexConnection,
    GeminiCliConnection,
    OpenAIConnection,
)
# The agent formats a Connection serves; "wrapper" runs Claude Code through its SDK.
_OF_AGENT: dict[str, type[AgentConnection]] = {
    "claude": ClaudeCodeConnection,
    "wrapper": ClaudeCodeConnection,
    "codex": CodexConnection,
    "gemini": GeminiCliConnection,
    "openai": OpenAIConnection,
}


def connection_types() -> list[dict[str, Any]]:
    """The provider info's ``connection-types``: hook, name, form fields, field behaviour."""
    return [connection.provider_entry() for connection in CONNECTIONS]


def connection_for_agent(agent: str) -> type[AgentConnection]:
    try:
        return _OF_AGENT[agent]
    except KeyError:
        raise ConfigError(
            f"conn_id works with agent {', '.join(sorted(_OF_AGENT))}, not {agent!r}: put that "
            "agent's settings in env or agent_options instead"
        ) from None


__all__ = [
    "CONNECTIONS",
    "AgentConnection",
    "AgentSettings",
    "ConnectionValues",
    "connection_for_agent",
    "connection_types",
]
