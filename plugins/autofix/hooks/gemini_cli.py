"""GeminiCliHook: an ``autofix_gemini_cli`` Connection for ``agent="gemini"``."""

from __future__ import annotations

from typing import ClassVar

from autofix.connections.gemini import GeminiCliConnection
from autofix.hooks.base import AgentConnectionHook


class GeminiCliHook(AgentConnectionHook):
    """Gemini CLI's key, base URL, model, and Vertex AI (docs/connections.md)."""

    connection_class: ClassVar[type[GeminiCliConnection]] = GeminiCliConnection
    conn_type = GeminiCliConnection.conn_type
    default_conn_name = GeminiCliConnection.default_conn_id
    hook_name = GeminiCliConnection.hook_name
