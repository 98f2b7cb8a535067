"""Agent output formats: one module per CLI, each turning its event stream into an AgentOutcome.

``get_format(name)`` returns a format; ``format.command(request)`` builds the Invocation and
``format.parser()`` an EventParser fed line by line. ``sim`` is the offline scripted agent.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from autofix.agents.base import AgentFormat, AgentOutcome, AgentRequest, EventParser, Invocation
from autofix.agents.registry import FORMAT_NAMES, format_class, get_format, parse_output
from autofix.result import FailureKind, FinishReason, RunStatus

if TYPE_CHECKING:
    from autofix.agents.claude import ClaudeFormat
    from autofix.agents.codex import CodexFormat
    from autofix.agents.gemini import GeminiFormat
    from autofix.agents.plain import PlainFormat
    from autofix.agents.wrapper import WrapperFormat
    from autofix.sim.format import SimFormat

__all__ = [
    "FORMAT_NAMES",
    "AgentFormat",
    "AgentOutcome",
    "AgentRequest",
    "ClaudeFormat",
    "CodexFormat",
    "EventParser",
    "FailureKind",
    "FinishReason",
    "GeminiFormat",
    "Invocation",
    "PlainFormat",
    "RunStatus",
    "SimFormat",
    "WrapperFormat",
    "format_class",
    "get_format",
    "parse_output",
]

_LAZY = {
    "ClaudeFormat": "claude",
    "CodexFormat": "codex",
    "GeminiFormat": "gemini",
    "PlainFormat": "plain",
    "SimFormat": "sim",
    "WrapperFormat": "wrapper",
}


def __getattr__(name: str) -> Any:
    # Lazy: importing autofix.agents must not import autofix.sim.format, or
    # ``python -m autofix.sim.format`` warns on stderr (the module would be loaded twice).
    if name in _LAZY:
        return format_class(_LAZY[name])
    raise AttributeError(f"module 'autofix.agents' has no attribute {name!r}")
