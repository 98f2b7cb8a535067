"""Airflow hooks: one per agent family's connection type, read into the plain values autofix's
core takes (``autofix.connections``)."""

from __future__ import annotations

from autofix.connections import connection_for_agent
from autofix.hooks.base import AgentConnectionHook
from autofix.hooks.claude_code import ClaudeCodeHook
from autofix.hooks.codex import CodexHook
from autofix.hooks.gemini_cli import GeminiCliHook
from autofix.hooks.openai_endpoint import OpenAIEndpointHook

HOOKS: tuple[type[AgentConnectionHook], ...] = (
    ClaudeCodeHook,
    CodexHook,
    GeminiCliHook,
    OpenAIEndpointHook,
)


def hook_for_agent(agent: str) -> type[AgentConnectionHook]:
    """The hook that reads ``conn_id`` for ``agent``; ConfigError for an agent without one."""
    connection = connection_for_agent(agent)
    return next(hook for hook in HOOKS if hook.connection_class is connection)


__all__ = [
    "HOOKS",
    "AgentConnectionHook",
    "ClaudeCodeHook",
    "CodexHook",
    "GeminiCliHook",
    "OpenAIEndpointHook",
    "hook_for_agent",
]
