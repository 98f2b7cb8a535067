"""What every agent format produces (AgentOutcome) and what it must implement (AgentFormat)."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, ClassVar

from pydantic import BaseModel, Field

from autofix.result import FailureKind, FinishReason, RunStatus, TokenUsage

# Long prompts go on stdin: one argv string is capped at 128 KiB on Linux (MAX_ARG_STRLEN).
MAX_PROMPT_ARG_CHARS = 100_000


class AgentOutcome(BaseModel):
    """One agent run as its own event stream describes it."""

    run_status: RunStatus = RunStatus.UNKNOWN
    final_text: str | None = None
    structured_output: Any = None
    session_id: str | None = None
    cost_usd: float | None = None
    usage: TokenUsage = Field(default_factory=TokenUsage)
    num_turns: int | None = None
    finish_reason: FinishReason | None = None
    failure_kind: FailureKind | None = None
    errors: list[str] = Field(default_factory=list)
    terminal_event: str | None = None  # the event that decided run_status, e.g. "result/success"
    events: int = 0
    non_json_lines: int = 0
    model: str | None = None


@dataclass(frozen=True)
class AgentRequest:
    """What to ask: the prompt plus per-call options every format may honour."""

    prompt: str
    resume_session_id: str | None = None
    model: str | None = None
    output_schema: dict[str, Any] | None = None
    max_turns: int | None = None
    extra_args: tuple[str, ...] = ()
    options: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Invocation:
    """How to start the agent: argv (never a shell string), optional stdin payload, env overrides."""

    argv: list[str]
    stdin: str | None = None
    env: dict[str, str] = field(default_factory=dict)


class EventParser(ABC):
    """Consumes stdout lines as they arrive; ``finish`` returns the outcome."""

    @abstractmethod
    def feed(self, line: str) -> None: ...

    @abstractmethod
    def finish(self, exit_code: int | None, stderr_tail: str = "") -> AgentOutcome: ...


class AgentFormat(ABC):
    """One agent CLI output format."""

    name: ClassVar[str]
    supports_resume: ClassVar[bool] = False
    has_event_stream: ClassVar[bool] = True  # False for "plain": stdout is ordinary output
    # Takes a seed and an output schema per call: the "auto" retry strategy resamples with them.
    samples: ClassVar[bool] = False
    # Works on a repository by itself (edits files, runs tools): the fixing application offers it.
    edits_files: ClassVar[bool] = False
    # What an unattended run needs (permissions): the fixing application's per-agent defaults.
    default_options: ClassVar[Mapping[str, Any]] = MappingProxyType({})

    @abstractmethod
    def command(
        self, request: AgentRequest, base_command: list[str] | None = None
    ) -> Invocation: ...

    @abstractmethod
    def parser(self) -> EventParser: ...
