"""ClaudeCodeHook: an ``autofix_claude_code`` Connection for ``agent="claude"`` (and ``wrapper``)."""

from __future__ import annotations

from typing import ClassVar

from autofix.connections.claude import ClaudeCodeConnection
from autofix.hooks.base import AgentConnectionHook


class ClaudeCodeHook(AgentConnectionHook):
    """Claude Code's key, base URL, model, and Bedrock or Vertex AI (docs/connections.md)."""

    connection_class: ClassVar[type[ClaudeCodeConnection]] = ClaudeCodeConnection
    conn_type = ClaudeCodeConnection.conn_type
    default_conn_name = ClaudeCodeConnection.default_conn_id
    hook_name = ClaudeCodeConnection.hook_name
