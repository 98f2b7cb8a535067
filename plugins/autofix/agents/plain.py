"""Any command without an event stream: the exit code decides, stdout is the answer.

Exit 0 with real error lines on stderr is a failure; exit 0 with nothing on stdout is an empty
answer unless ``answer_required`` is False. The prompt goes on stdin by default.
``options["prompt_arg"] = True`` appends it as the last argument instead, and a ``{prompt}``
token in the command is replaced by it.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, ClassVar, cast

from pydantic import with_config
from typing_extensions import TypedDict

from autofix.agents.base import AgentFormat, AgentOutcome, AgentRequest, EventParser, Invocation
from autofix.agents.events import BaseParser, TextAnswer, add_error
from autofix.agents.limits import LIMIT_NAMES, LimitSupport
from autofix.result import FinishReason, RunStatus

PROMPT_TOKEN = "{prompt}"


class PlainParser(BaseParser):
    """Keeps the last lines of stdout as the final text; the exit code gives the status."""

    def __init__(self) -> None:
        self._answer = TextAnswer()

    def feed(self, line: str) -> None:
        self._answer.add(line)

    def _finish(self, exit_code: int | None, stderr_tail: str) -> AgentOutcome:
        text = self._answer.joined()
        outcome = AgentOutcome(final_text=text or None, events=0, non_json_lines=0)
        if exit_code == 0:
            outcome.run_status = RunStatus.COMPLETED
            outcome.finish_reason = FinishReason.STOP
            outcome.terminal_event = "exit/0"
        elif exit_code is None:
            add_error(outcome.errors, "plain: the command ended without an exit code")
        else:
            outcome.run_status = RunStatus.FAILED
            outcome.finish_reason = FinishReason.ERROR
            outcome.terminal_event = f"exit/{exit_code}"
            add_error(outcome.errors, f"plain: the command exited with {exit_code}")
        return outcome


@with_config(extra="forbid")
class PlainOptions(TypedDict, total=False):
    """``agent_options`` for ``agent="plain"``."""

    prompt_arg: bool  # append the prompt as the last argument instead of writing it to stdin
    # False for a command that only edits files: exit 0 with nothing on stdout is then a success
    # (by default it is an empty answer, as for every agent).
    answer_required: bool


_OWN_COMMAND = "a plain command has no agent settings; put what it needs in command=[...]"
PLAIN_LIMITS = LimitSupport(
    options=frozenset({"extra_args"}),
    missing=MappingProxyType({name: _OWN_COMMAND for name in LIMIT_NAMES if name != "extra_args"}),
)


class PlainFormat(AgentFormat):
    """Run ``base_command`` as given (it is required)."""

    name: ClassVar[str] = "plain"
    has_event_stream: ClassVar[bool] = False
    options_type: ClassVar[type[Mapping[str, Any]]] = PlainOptions
    limit_support: ClassVar[LimitSupport] = PLAIN_LIMITS

    def invocation(self, request: AgentRequest, base_command: list[str] | None) -> Invocation:
        if not base_command:
            raise ValueError("the plain format needs a command: pass command=[...]")
        has_token = any(PROMPT_TOKEN in arg for arg in base_command)
        argv = [arg.replace(PROMPT_TOKEN, request.prompt) for arg in base_command]
        argv += list(request.limits.extra_args)
        if has_token:
            return Invocation(argv=argv)
        if cast(PlainOptions, request.options).get("prompt_arg"):
            return Invocation(argv=[*argv, request.prompt])
        return Invocation(argv=argv, stdin=request.prompt)

    def expects_answer(self, options: Mapping[str, Any]) -> bool:
        return bool(options.get("answer_required", True))

    def parser(self) -> EventParser:
        return PlainParser()
