"""What every agent format produces (AgentOutcome) and what it must implement (AgentFormat)."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any, ClassVar

from pydantic import BaseModel, Field, TypeAdapter, ValidationError, with_config
from typing_extensions import TypedDict  # pydantic reads only this one on Python < 3.12

from autofix.agents.fatal import FatalForms, NoticeForms
from autofix.agents.limits import AgentLimits, LimitSupport, conflicting_legacy, merge_legacy
from autofix.agents.watch import RetryWatcher, WatchSettings
from autofix.notices import AgentNotice
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
    retry_after_s: float | None = None  # a reset time or retry-after the output carried
    errors: list[str] = Field(default_factory=list)
    terminal_event: str | None = None  # the event that decided run_status, e.g. "result/success"
    events: int = 0
    non_json_lines: int = 0
    model: str | None = None
    unreadable_events: int = 0  # events skipped because they could not be read
    notes: list[str] = Field(default_factory=list)  # what the reader wants reported (warnings)
    # What the CLI reported in its events: denied tools, failed MCP servers, loops, compaction.
    notices: list[AgentNotice] = Field(default_factory=list)
    # False when the output carries the API's or the CLI's own "do not retry" (a structured
    # field, never wording): the failure is then permanent whatever its kind.
    retryable: bool | None = None
    # The CLI printed no event at all: its text output mode (the answer is stdout as text).
    text_mode: bool = False


# Attempt n of a resampling strategy asks for seed + (n - 1) * SEED_STRIDE: far apart draws.
SEED_STRIDE = 7919


@dataclass(frozen=True)
class AttemptOptions:
    """What the retry strategy asks of one attempt; the defaults are a plain first call."""

    strategy: str | None = None  # the strategy that built this attempt (audit, adaptive table)
    retry_for: str | None = None  # the error category this retry addresses (audit)
    seed_offset: int = 0  # resample: a fresh draw, offset from the configured seed
    messages: tuple[Mapping[str, str], ...] | None = None  # history: the whole conversation
    constrained: bool | None = None  # send the output schema as a decoding constraint
    schema_optional: bool = False  # an endpoint that rejects the schema is called without it
    # The schema a constrained attempt decodes with when it is not the output schema as is
    # (cross-field rules folded in, a targeted re-decode: validation/decoding.py).
    schema: Mapping[str, Any] | None = None

    def seed_for(self, seed: int | None) -> int | None:
        """The seed this attempt uses, given the configured one."""
        if seed is None or not self.seed_offset:
            return seed
        return seed + self.seed_offset * SEED_STRIDE

    def audit_context(self) -> dict[str, Any]:
        """What the audit envelope records about this attempt's strategy."""
        if self.strategy is None:
            return {}
        context: dict[str, Any] = {"strategy": self.strategy, "constrained": bool(self.constrained)}
        if self.retry_for is not None:
            context["retry_for"] = self.retry_for
        return context


@dataclass(frozen=True)
class AgentRequest:
    """What to ask: the prompt, per-call settings, the format's own options and the attempt's.

    ``options`` are the format's own (its ``options_type``, checked by ``check_options``);
    ``limits`` the agent's own limits and tools (turn cap, tools, MCP servers, ...), mapped by
    each format onto its CLI; ``task_env`` (the task's environment on top of the worker's) and
    ``cwd`` tell a format that writes a config file where the CLI would look otherwise;
    ``operation`` names the task step (the scripted agent keeps its attempt counters by it).
    """

    prompt: str
    resume_session_id: str | None = None
    model: str | None = None
    output_schema: dict[str, Any] | None = None
    limits: AgentLimits = field(default_factory=AgentLimits)
    operation: str = ""
    options: Mapping[str, Any] = field(default_factory=dict)
    attempt: AttemptOptions = field(default_factory=AttemptOptions)
    task_env: Mapping[str, str] = field(default_factory=dict)
    cwd: str | None = None


@dataclass(frozen=True)
class Invocation:
    """How to start the agent: argv (never a shell string), optional stdin payload, env overrides.

    ``cleanup``: directories holding the run's own config files (an MCP config, a settings
    file), removed when the run ends."""

    argv: list[str]
    stdin: str | None = None
    env: dict[str, str] = field(default_factory=dict)
    cleanup: tuple[str, ...] = ()


@with_config(extra="forbid")
class NoOptions(TypedDict, total=False):
    """A format without options of its own."""


_ADAPTERS: dict[type[Mapping[str, Any]], TypeAdapter[Any]] = {}


def check_options(
    agent: str, options_type: type[Mapping[str, Any]], options: Mapping[str, Any]
) -> dict[str, Any]:
    """Validate one format's options: unknown keys and wrong types are a clear ValueError."""
    adapter = _ADAPTERS.get(options_type)
    if adapter is None:
        adapter = TypeAdapter(options_type)  # each options TypedDict forbids extra keys
        _ADAPTERS[options_type] = adapter
    try:
        checked: dict[str, Any] = adapter.validate_python(dict(options))
    except ValidationError as exc:
        valid = ", ".join(sorted(options_type.__annotations__)) or "none"
        problems = "; ".join(
            f"{'.'.join(str(part) for part in error['loc']) or 'options'}: {error['msg']}"
            for error in exc.errors()
        )
        raise ValueError(f"{agent} agent_options: {problems} (valid keys: {valid})") from None
    return checked


EventListener = Callable[[dict[str, Any]], object]


class EventParser(ABC):
    """Consumes stdout lines as they arrive; ``finish`` returns the outcome.

    ``listener``, when set, sees every JSON event object as it is parsed (the early-stop
    watcher reads the same events, so nothing is parsed twice)."""

    listener: EventListener | None = None
    # The run was asked for the CLI's text output mode (True), for its events (False), or
    # nobody knows (None: a saved run; a run without any event is then read as text).
    text_output: bool | None = None

    @abstractmethod
    def feed(self, line: str) -> None: ...

    @abstractmethod
    def finish(self, exit_code: int | None, stderr_tail: str = "") -> AgentOutcome: ...


class AgentFormat(ABC):
    """One agent CLI output format."""

    name: ClassVar[str]
    supports_resume: ClassVar[bool] = False
    has_event_stream: ClassVar[bool] = True  # False for "plain": stdout is ordinary output
    # The CLI ends every run with a structured terminal result (or, in its text mode, an exit
    # code its source sets on every failure), so that result decides success: stderr counts
    # against it only in the CLI's own fatal forms (``fatal_forms``). False (plain, wrapper):
    # exit 0 with real error lines on stderr is a failure (docs/failure-kinds.md).
    structured_result: ClassVar[bool] = False
    # Takes a seed and an output schema per call: the "auto" retry strategy resamples with them.
    samples: ClassVar[bool] = False
    # Works on a repository by itself (edits files, runs tools): the fixing application offers it.
    edits_files: ClassVar[bool] = False
    # What an unattended run needs (permissions): the fixing application's per-agent defaults.
    default_options: ClassVar[Mapping[str, Any]] = MappingProxyType({})

    # The format's own options (a TypedDict); the operator's ``agent_options`` must fit it.
    options_type: ClassVar[type[Mapping[str, Any]]] = NoOptions
    # Which AgentLimits the format maps onto its CLI (docs/agents/options.md).
    limit_support: ClassVar[LimitSupport] = LimitSupport()
    # Older ``agent_options`` keys that say what a typed option says: old key → typed option.
    legacy_limit_keys: ClassVar[Mapping[str, str]] = MappingProxyType({})

    @classmethod
    def check_options(cls, options: Mapping[str, Any]) -> dict[str, Any]:
        """``options`` validated against ``options_type``; ValueError naming the bad key."""
        return check_options(cls.name, cls.options_type, options)

    @classmethod
    def check_limits(cls, limits: AgentLimits, option_names: Iterable[str] = ()) -> None:
        """At DAG parse time: AgentOptionError for an option this CLI does not take, a value it
        does not accept, or a typed option also given by its older ``agent_options`` key."""
        conflicting_legacy(cls.name, limits, option_names, cls.legacy_limit_keys)
        cls.limit_support.check(cls.name, limits)

    def legacy_limits(self, options: Mapping[str, Any]) -> dict[str, tuple[str, Any]]:
        """What the older keys in (checked) ``options`` ask for: typed option → (old key, value)."""
        return {}

    def command(self, request: AgentRequest, base_command: list[str] | None = None) -> Invocation:
        """argv, stdin and env for ``request``; ValueError on options that do not fit the format
        (AgentOptionError, a ValueError too, for limits its CLI cannot take)."""
        options = self.check_options(request.options)
        limits = merge_legacy(self.name, request.limits, self.legacy_limits(options))
        self.limit_support.check(self.name, limits)
        return self.invocation(replace(request, options=options, limits=limits), base_command)

    @abstractmethod
    def invocation(self, request: AgentRequest, base_command: list[str] | None) -> Invocation:
        """Build the invocation; ``request.options`` is already checked against ``options_type``
        and ``request.limits`` against ``limit_support`` (older option keys merged in)."""

    def asks_for_text(self, options: Mapping[str, Any]) -> bool | None:
        """Whether ``options`` ask the CLI for its text output mode; None: it has none."""
        return None

    def expects_answer(self, options: Mapping[str, Any]) -> bool:
        """The run must end with an answer: exit 0 with nothing to say is an empty answer."""
        return True

    def completes_text(self, options: Mapping[str, Any]) -> bool:
        """The model continues a text instead of answering a chat: feedback reads as a completion."""
        return False

    @abstractmethod
    def parser(self) -> EventParser: ...

    def watcher(self, settings: WatchSettings) -> RetryWatcher | None:
        """The early-stop watcher of this CLI's retry notices; None when it has none."""
        return None

    def fatal_forms(self) -> FatalForms | None:
        """The lines this CLI itself prints when a run fails (from its source); None: none known."""
        return None

    def notice_forms(self) -> NoticeForms | None:
        """The stderr lines in which this CLI reports on its own run (a failed MCP server)."""
        return None
