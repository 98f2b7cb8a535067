"""The agent's own limits and tools, typed: :class:`AgentLimits`, and which of them a CLI takes.

One value carries the operator's ``max_turns=``, ``allowed_tools=``, ``disallowed_tools=``,
``permission_mode=``, ``mcp_servers=``, ``fallback_model=`` and ``extra_args=`` to the agent
format, which maps each onto its own CLI: a flag, or a config file in the CLI's own format
(docs/agents/options.md has the table, with the source of every flag). What a format maps is
its :class:`LimitSupport`; anything else is an :class:`~autofix.errors.AgentOptionError` when
the DAG is parsed, never ignored.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    ValidationError,
    model_validator,
)

from autofix.errors import AgentOptionError

McpTransport = Literal["stdio", "http", "sse"]
# A server name every CLI takes as it is: a JSON key, a TOML bare key, a tool-name prefix.
McpServerName = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_-]{1,64}$")]

LIMIT_NAMES: tuple[str, ...] = (
    "max_turns",
    "allowed_tools",
    "disallowed_tools",
    "permission_mode",
    "mcp_servers",
    "fallback_model",
    "extra_args",
)


class McpServer(BaseModel):
    """One MCP server: a local command (stdio) or a remote URL (streamable HTTP, or SSE)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    command: str | None = None
    args: tuple[str, ...] = ()
    env: dict[str, str] = Field(default_factory=dict)
    url: str | None = None
    # Unset: stdio for a command, http (streamable HTTP) for a URL.
    transport: McpTransport | None = None
    headers: dict[str, str] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _one_kind(self) -> McpServer:
        if (self.command is None) == (self.url is None):
            raise ValueError("give either command (a local server) or url (a remote one)")
        if self.kind == "stdio" and (self.url is not None or self.headers):
            raise ValueError(
                "a stdio server takes command, args and env; url and headers are for http/sse"
            )
        if self.kind != "stdio" and (self.command is not None or self.args or self.env):
            raise ValueError(
                f"a {self.kind} server takes url and headers; command, args and env are for stdio"
            )
        return self

    @property
    def kind(self) -> McpTransport:
        return self.transport or ("stdio" if self.command is not None else "http")


class AgentLimits(BaseModel):
    """What the agent itself may do in one run, in names and types every CLI shares."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    max_turns: int | None = Field(default=None, ge=1)
    allowed_tools: tuple[str, ...] = ()
    disallowed_tools: tuple[str, ...] = ()
    # The CLI's own permission or sandbox mode; LimitSupport.permission_modes lists its values.
    permission_mode: str | None = None
    mcp_servers: dict[McpServerName, McpServer] = Field(default_factory=dict)
    fallback_model: str | None = None
    extra_args: tuple[str, ...] = ()

    def given(self) -> tuple[str, ...]:
        """The names of the options that are set, in LIMIT_NAMES order."""
        values = self.model_dump(exclude_defaults=True)
        return tuple(name for name in LIMIT_NAMES if name in values)

    def only(self, names: Iterable[str]) -> AgentLimits:
        """These limits without the options outside ``names``."""
        keep = set(names)
        return AgentLimits.model_validate(
            {name: getattr(self, name) for name in self.given() if name in keep}
        )


def agent_limits(agent: str, **values: Any) -> AgentLimits:
    """AgentLimits from keyword arguments (None: not set); a wrong type is an AgentOptionError."""
    given = {name: value for name, value in values.items() if value is not None}
    try:
        return AgentLimits.model_validate(given)
    except ValidationError as exc:
        error = exc.errors()[0]
        loc = list(error["loc"])
        option = str(loc[0]) if loc else "options"
        where = option + "".join(f"[{part!r}]" for part in loc[1:] if part != "[key]")
        if "[key]" in loc:
            where += " (its name)"
        elif len(loc) == 1:
            where += f"={given.get(option)!r}"
        message = _MESSAGES.get(error["type"], str(error["msg"]).removeprefix("Value error, "))
        hint = "" if error["type"] in _MESSAGES else _TYPE_HINTS.get(option, "")
        raise AgentOptionError(
            f"{where} for agent {agent!r}: {message}{hint}",
            agent=agent,
            option=option,
            supported=LIMIT_NAMES,
        ) from None


# Errors whose own wording says what to do (no type hint after them).
_MESSAGES = {"string_pattern_mismatch": "a server name is 1 to 64 letters, digits, '_' or '-'"}
_TYPE_HINTS = {
    "allowed_tools": "; pass a list of tool names, e.g. ['Read', 'Edit']",
    "disallowed_tools": "; pass a list of tool names, e.g. ['Bash']",
    "extra_args": "; pass a list of arguments, e.g. ['--verbose']",
    "mcp_servers": (
        "; pass {name: {'command': ..., 'args': [...], 'env': {...}}} or "
        "{name: {'url': ..., 'headers': {...}}}"
    ),
    "max_turns": "; pass a whole number of turns, 1 or more",
}


@dataclass(frozen=True)
class LimitSupport:
    """Which AgentLimits one agent format maps onto its CLI.

    ``missing`` says, for an option the CLI does not take, why (and what to do instead);
    ``permission_modes`` are the values its permission or sandbox mode takes;
    ``mcp_transports`` the MCP server kinds its config accepts."""

    options: frozenset[str] = frozenset()
    permission_modes: tuple[str, ...] = ()
    mcp_transports: tuple[McpTransport, ...] = ()
    missing: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))

    def check(self, agent: str, limits: AgentLimits) -> None:
        """AgentOptionError for the first option (or value) of ``limits`` this CLI cannot take."""
        supported = tuple(name for name in LIMIT_NAMES if name in self.options)
        for name in limits.given():
            if name in self.options:
                continue
            why = self.missing.get(name) or f"the {agent} agent has no such setting"
            takes = ", ".join(supported) or "none of them"
            raise AgentOptionError(
                f"{name} is not supported by agent {agent!r}: {why}. "
                f"Of the typed options, {agent} takes: {takes}",
                agent=agent,
                option=name,
                supported=supported,
            )
        mode = limits.permission_mode
        if mode is not None and self.permission_modes and mode not in self.permission_modes:
            raise AgentOptionError(
                f"permission_mode={mode!r} is not a mode agent {agent!r} takes; "
                f"it takes: {', '.join(self.permission_modes)}",
                agent=agent,
                option="permission_mode",
                supported=self.permission_modes,
            )
        for name, server in limits.mcp_servers.items():
            if server.kind not in self.mcp_transports:
                raise AgentOptionError(
                    f"mcp_servers[{name!r}] uses transport {server.kind!r}, which agent "
                    f"{agent!r} cannot use; it takes: {', '.join(self.mcp_transports)}",
                    agent=agent,
                    option="mcp_servers",
                    supported=self.mcp_transports,
                )


def merge_legacy(
    agent: str, limits: AgentLimits, legacy: Mapping[str, tuple[str, Any]]
) -> AgentLimits:
    """``limits`` with what the format's older ``agent_options`` keys ask for filled in.

    ``legacy`` maps a typed option to (the old key, its value as the typed option); the same
    setting given both ways is an AgentOptionError, never a silent choice."""
    given = set(limits.given())
    updates: dict[str, Any] = {}
    for name, (old_key, value) in legacy.items():
        if name in given:
            raise _given_twice(agent, name, old_key)
        updates[name] = value
    if not updates:
        return limits
    return AgentLimits.model_validate({**limits.model_dump(exclude_defaults=True), **updates})


def conflicting_legacy(
    agent: str, limits: AgentLimits, option_names: Iterable[str], legacy_names: Mapping[str, str]
) -> None:
    """At parse time, before values are rendered: an old ``agent_options`` key (``legacy_names``:
    old key → typed option) given beside its typed option is an AgentOptionError."""
    given = set(limits.given())
    for old_key in option_names:
        name = legacy_names.get(old_key)
        if name is not None and name in given:
            raise _given_twice(agent, name, old_key)


def _given_twice(agent: str, name: str, old_key: str) -> AgentOptionError:
    return AgentOptionError(
        f"{name} is given twice for agent {agent!r}: as {name}= and as "
        f"agent_options[{old_key!r}]; keep one (the {name}= keyword argument)",
        agent=agent,
        option=name,
        supported=(name,),
    )


def private_file(prefix: str, name: str, text: str) -> Path:
    """``text`` in a new file only this user can read (it may carry an MCP server's key), in a
    directory of its own: the run removes the directory when it ends (Invocation.cleanup)."""
    directory = Path(tempfile.mkdtemp(prefix=f"autofix-{prefix}-"))  # mode 0700
    path = directory / name
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(text)
    return path
