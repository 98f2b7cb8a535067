"""CodexHook: an ``autofix_codex`` Connection for ``agent="codex"``."""

from __future__ import annotations

from typing import ClassVar

from autofix.connections.codex import CodexConnection
from autofix.hooks.base import AgentConnectionHook


class CodexHook(AgentConnectionHook):
    """Codex CLI's key, model, and a custom provider for a base URL (docs/connections.md)."""

    connection_class: ClassVar[type[CodexConnection]] = CodexConnection
    conn_type = CodexConnection.conn_type
    default_conn_name = CodexConnection.default_conn_id
    hook_name = CodexConnection.hook_name
