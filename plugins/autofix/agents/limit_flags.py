"""How each agent CLI takes the typed limits (AgentLimits): its flags and config files.

One section per CLI: what it supports (``LimitSupport``, the values from its own ``--help``
and source; docs/agents/options.md has the table with every source), and the argv or config
it gets. The formats (claude.py, codex.py, gemini.py) call these from ``invocation``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from autofix.agents.limits import (
    LIMIT_NAMES,
    AgentLimits,
    LimitSupport,
    McpServer,
    private_file,
)

# -- Claude Code ----------------------------------------------------------------------------

# ``claude --help`` of 2.1.332 (``--max-turns`` is a hidden option of the same parser); the
# default mode "default" is accepted beside the listed choices.
CLAUDE_PERMISSION_MODES = (
    "acceptEdits",
    "auto",
    "bypassPermissions",
    "default",
    "dontAsk",
    "manual",
    "plan",
)
CLAUDE_LIMITS = LimitSupport(
    options=frozenset(LIMIT_NAMES),
    permission_modes=CLAUDE_PERMISSION_MODES,
    mcp_transports=("stdio", "http", "sse"),
)


def claude_mcp_config(servers: Mapping[str, McpServer]) -> dict[str, Any]:
    """``--mcp-config``'s file: ``{"mcpServers": {name: {"type": ..., ...}}}`` (the format of
    ``.mcp.json``, docs/agents/options.md)."""
    config: dict[str, Any] = {}
    for name, server in servers.items():
        entry: dict[str, Any] = {"type": server.kind}
        if server.kind == "stdio":
            entry.update(command=server.command, args=list(server.args), env=dict(server.env))
        else:
            entry.update(url=server.url, headers=dict(server.headers))
        config[name] = entry
    return {"mcpServers": config}


def claude_limit_args(limits: AgentLimits) -> tuple[list[str], tuple[str, ...]]:
    """The flags for ``limits`` (but extra_args), and the directory of the MCP config file.

    The list options are variadic (``<tools...>``, ``<configs...>``): their ``--flag=value``
    form takes exactly one argument, so nothing after them is read as one more value."""
    argv: list[str] = []
    cleanup: tuple[str, ...] = ()
    if limits.max_turns is not None:
        argv += ["--max-turns", str(limits.max_turns)]
    if limits.fallback_model:
        argv += ["--fallback-model", limits.fallback_model]
    if limits.permission_mode:
        argv += ["--permission-mode", limits.permission_mode]
    if limits.allowed_tools:
        argv.append("--allowedTools=" + ",".join(limits.allowed_tools))
    if limits.disallowed_tools:
        argv.append("--disallowedTools=" + ",".join(limits.disallowed_tools))
    if limits.mcp_servers:
        text = json.dumps(claude_mcp_config(limits.mcp_servers), indent=2)
        path = private_file("claude-mcp", "mcp.json", text)
        argv.append(f"--mcp-config={path}")
        cleanup = (str(path.parent),)
    return argv, cleanup


# -- Codex CLI ------------------------------------------------------------------------------

# ``codex exec --help`` of 0.171.0: ``-s, --sandbox`` [possible values: ...].
CODEX_SANDBOX_MODES = ("read-only", "workspace-write", "danger-full-access")
# What older codex releases' --full-auto chose (agent_options["full_auto"]).
FULL_AUTO_SANDBOX = "workspace-write"
CODEX_LIMITS = LimitSupport(
    options=frozenset({"permission_mode", "mcp_servers", "extra_args"}),
    permission_modes=CODEX_SANDBOX_MODES,
    mcp_transports=("stdio", "http"),  # mcp_servers.<name>: command, or url (streamable HTTP)
    missing=MappingProxyType(
        {
            "max_turns": (
                "codex exec has no turn cap (no flag and no config key in 0.171.0); "
                "bound the run with timeout= instead"
            ),
            "allowed_tools": (
                "codex has no tool allowlist; its sandbox (permission_mode) decides what "
                "commands may do"
            ),
            "disallowed_tools": (
                "codex has no tool denylist; its sandbox (permission_mode) decides what "
                "commands may do"
            ),
            "fallback_model": "codex has no fallback model (no flag and no config key)",
        }
    ),
)


def _toml(value: Any) -> str:
    """A TOML value for a ``-c`` override: a JSON string is a valid TOML basic string, and
    every key is quoted, so no name or value can break out of it."""
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_toml(item) for item in value) + "]"
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{json.dumps(str(k))} = {_toml(v)}" for k, v in value.items()) + "}"
    raise TypeError(f"no TOML form for {type(value).__name__}")


def codex_mcp_overrides(servers: Mapping[str, McpServer]) -> list[str]:
    """``-c mcp_servers.<name>={...}`` per server: the ``[mcp_servers.<name>]`` table of
    config.toml (command, args, env; or url, http_headers), docs/agents/options.md."""
    argv: list[str] = []
    for name, server in servers.items():
        table: dict[str, Any]
        if server.kind == "stdio":
            table = {"command": server.command, "args": list(server.args)}
            if server.env:
                table["env"] = dict(server.env)
        else:
            table = {"url": server.url}
            if server.headers:
                table["http_headers"] = dict(server.headers)
        argv += ["-c", f"mcp_servers.{name}={_toml(table)}"]
    return argv


# -- Gemini CLI -----------------------------------------------------------------------------

# ``gemini --help`` of 0.61.0: ``--approval-mode`` [choices: ...].
GEMINI_APPROVAL_MODES = ("default", "auto_edit", "yolo", "plan")
GEMINI_LIMITS = LimitSupport(
    options=frozenset(
        {
            "max_turns",
            "allowed_tools",
            "disallowed_tools",
            "permission_mode",
            "mcp_servers",
            "extra_args",
        }
    ),
    permission_modes=GEMINI_APPROVAL_MODES,
    mcp_transports=("stdio", "http", "sse"),
    missing=MappingProxyType(
        {
            "fallback_model": (
                "gemini has no fallback-model flag; its own fallback chains are "
                "settings.json's modelConfigs.modelChains, set them there"
            ),
        }
    ),
)


def gemini_mcp_servers(servers: Mapping[str, McpServer]) -> dict[str, Any]:
    """``mcpServers`` entries (MCPServerConfig): command, args, env; or type, url, headers."""
    entries: dict[str, Any] = {}
    for name, server in servers.items():
        if server.kind == "stdio":
            entries[name] = {
                "command": server.command,
                "args": list(server.args),
                "env": dict(server.env),
            }
        else:
            entries[name] = {
                "type": server.kind,
                "url": server.url,
                "headers": dict(server.headers),
            }
    return entries


def gemini_limit_settings(limits: AgentLimits) -> dict[str, Any]:
    """The settings ``limits`` ask for; empty when none of them lives in settings.json."""
    settings: dict[str, Any] = {}
    if limits.max_turns is not None:
        settings["model"] = {"maxSessionTurns": limits.max_turns}
    tools: dict[str, Any] = {}
    if limits.allowed_tools:
        tools["allowed"] = list(limits.allowed_tools)
    if limits.disallowed_tools:
        tools["exclude"] = list(limits.disallowed_tools)
    if tools:
        settings["tools"] = tools
    if limits.mcp_servers:
        settings["mcpServers"] = gemini_mcp_servers(limits.mcp_servers)
    return settings
