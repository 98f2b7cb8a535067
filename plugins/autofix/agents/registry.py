"""Format names → AgentFormat classes. Modules are imported on first use."""

from __future__ import annotations

import importlib
from collections.abc import Iterable

from autofix.agents.base import AgentFormat, AgentOutcome

_FORMATS: dict[str, tuple[str, str]] = {
    "claude": ("autofix.agents.claude", "ClaudeFormat"),
    "codex": ("autofix.agents.codex", "CodexFormat"),
    "gemini": ("autofix.agents.gemini", "GeminiFormat"),
    "wrapper": ("autofix.agents.wrapper", "WrapperFormat"),
    "plain": ("autofix.agents.plain", "PlainFormat"),
    "sim": ("autofix.sim.format", "SimFormat"),
    "openai": ("autofix.agents.openai.format", "OpenAIFormat"),
}

FORMAT_NAMES: tuple[str, ...] = tuple(_FORMATS)
# The formats whose saved output can be judged on its own (``autofix classify --agent``, the
# UI's pattern tester); the scripted agent speaks one of them, so its output is judged as that.
SAVED_OUTPUT_FORMATS: tuple[str, ...] = tuple(name for name in FORMAT_NAMES if name != "sim")


def format_class(name: str) -> type[AgentFormat]:
    """The AgentFormat class for ``name``; ValueError listing the valid names otherwise."""
    try:
        module_name, class_name = _FORMATS[name]
    except (KeyError, TypeError):
        raise ValueError(
            f"unknown agent format {name!r}; valid: {', '.join(FORMAT_NAMES)}"
        ) from None
    cls: type[AgentFormat] = getattr(importlib.import_module(module_name), class_name)
    return cls


def coding_agents() -> tuple[str, ...]:
    """The formats that can work on a repository unattended (``AgentFormat.edits_files``)."""
    return tuple(name for name in FORMAT_NAMES if format_class(name).edits_files)


def get_format(name: str) -> AgentFormat:
    """A fresh instance of the format called ``name``."""
    return format_class(name)()


def parse_output(
    agent_format: str | AgentFormat,
    stdout: str | Iterable[str],
    exit_code: int | None = 0,
    stderr: str = "",
) -> AgentOutcome:
    """Parse a whole captured stdout (a string or its lines) at once, e.g. a saved transcript."""
    fmt = get_format(agent_format) if isinstance(agent_format, str) else agent_format
    parser = fmt.parser()
    lines = stdout.splitlines() if isinstance(stdout, str) else stdout
    for line in lines:
        parser.feed(line)
    return parser.finish(exit_code, stderr)
