"""The Air-Executor wrapper protocol (``scripts/claude_wrapper.py``), README §6.

One JSON command on stdin (``{"action": "prompt", "prompt": ..., "options": {...}}``), one JSON
event per stdout line. The run's verdict:

- ``run_completed`` with ``reason: ok`` → completed, unless the last ``ResultMessage`` says
  ``is_error``; ``reason: limit_reached`` → limit_reached (not done, although "completed");
- ``run_failed`` → failed; the last ``ResultMessage`` subtype (e.g. ``error_max_turns``)
  gives the real reason, since the wrapper's own error text is generic;
- ``run_cancelled`` → cancelled; ``run_terminated``, ``fatal`` → failed;
- an ``error`` event before any run started (bad options, missing prompt) → failed,
  invalid_request.

Final text and session id come from the last ``ResultMessage`` payload.
"""

from __future__ import annotations

import json
import os
import shlex
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, ClassVar, cast

from pydantic import with_config
from typing_extensions import TypedDict

from autofix.agents.base import AgentFormat, AgentOutcome, AgentRequest, EventParser, Invocation
from autofix.agents.claude import ClaudeHints, claude_result_verdict, claude_usage
from autofix.agents.events import JsonEventParser, add_error, as_dict, as_float, as_str
from autofix.agents.failures import kind_from_message, no_terminal_failure
from autofix.agents.limits import LimitSupport
from autofix.result import FailureKind, FinishReason, RunStatus

WRAPPER_COMMAND_ENV = "AUTOFIX_WRAPPER_COMMAND"


class WrapperParser(JsonEventParser):
    """Wrapper event lines → AgentOutcome."""

    agent_name = "wrapper"

    def __init__(self) -> None:
        super().__init__()
        self._session_id: str | None = None
        self._model: str | None = None
        self._result: dict[str, Any] | None = None
        self._last_stop: str | None = None
        self._terminal: dict[str, Any] | None = None
        self._run_started = False
        self._pre_run_error: str | None = None
        self._fatal: dict[str, Any] | None = None
        self._limit_notices: list[str] = []

    def _handle(self, event: dict[str, Any]) -> None:
        self._events += 1
        name = event.get("event")
        if name == "run_started":
            self._run_started = True
        elif name == "stream":
            self._stream(as_dict(event.get("payload")))
        elif name == "limit_notice":
            add_error(self._limit_notices, event.get("message") or "limit reached")
        elif name in ("run_completed", "run_failed", "run_cancelled", "run_terminated"):
            self._terminal = event
        elif name == "fatal":
            self._fatal = event
        elif name == "error" and not self._run_started:
            self._pre_run_error = str(event.get("error") or "wrapper error")
            if event.get("details"):
                self._pre_run_error += f": {event['details']}"
        elif name in ("state", "shutdown", "status"):
            self._session_id = self._session_id or as_str(event.get("last_session_id"))

    def _stream(self, payload: dict[str, Any]) -> None:
        kind = payload.get("message_type")
        if kind == "SystemMessage":
            data = as_dict(payload.get("data"))
            self._session_id = as_str(data.get("session_id")) or self._session_id
            self._model = as_str(data.get("model")) or self._model
        elif kind == "AssistantMessage":
            self._model = as_str(payload.get("model")) or self._model
            stop = as_str(payload.get("stop_reason"))
            if stop:
                self._last_stop = stop
        elif kind == "ResultMessage":
            self._result = payload
            self._session_id = as_str(payload.get("session_id")) or self._session_id

    def _finish(self, exit_code: int | None, stderr_tail: str) -> AgentOutcome:
        for value in self._reader.finish():
            if isinstance(value, dict):
                self._handle(value)
        outcome = AgentOutcome(
            events=self._events,
            non_json_lines=self._reader.non_json_lines,
            model=self._model,
        )
        result = self._result
        if result is not None:
            text = result.get("result")
            outcome.final_text = text if isinstance(text, str) else None
            outcome.structured_output = result.get("structured_output")
            outcome.cost_usd = as_float(result.get("total_cost_usd"))
            outcome.usage = claude_usage(result.get("usage"))
            turns = result.get("num_turns")
            outcome.num_turns = (
                turns if isinstance(turns, int) and not isinstance(turns, bool) else None
            )

        terminal = self._terminal
        if terminal is not None:
            self._decide(outcome, terminal, result)
        elif self._fatal is not None:
            outcome.run_status = RunStatus.FAILED
            outcome.finish_reason = FinishReason.ERROR
            outcome.terminal_event = "fatal"
            message = str(self._fatal.get("error") or "wrapper fatal error")
            add_error(outcome.errors, message)
            outcome.failure_kind = kind_from_message(message) or FailureKind.UNKNOWN
        elif self._pre_run_error is not None:
            outcome.run_status = RunStatus.FAILED
            outcome.finish_reason = FinishReason.ERROR
            outcome.terminal_event = "error"
            add_error(outcome.errors, self._pre_run_error)
            outcome.failure_kind = FailureKind.INVALID_REQUEST
        else:
            kind, message = no_terminal_failure(
                self.agent_name, exit_code, stderr_tail, self._reader.non_json_tail
            )
            outcome.failure_kind = kind
            outcome.errors = [message]
        outcome.session_id = self._session_id
        return outcome

    def _decide(
        self, outcome: AgentOutcome, terminal: dict[str, Any], result: dict[str, Any] | None
    ) -> None:
        name = str(terminal.get("event"))
        reason = str(terminal.get("reason") or "")
        outcome.terminal_event = f"{name}/{reason}" if reason else name
        if name == "run_cancelled":
            outcome.run_status = RunStatus.CANCELLED
            outcome.finish_reason = FinishReason.ERROR
            return
        if name == "run_completed" and reason == "limit_reached":
            message = "\n".join([str(terminal.get("message") or ""), *self._limit_notices])
            kind = kind_from_message(message)
            outcome.run_status = RunStatus.LIMIT_REACHED
            outcome.finish_reason = FinishReason.ERROR
            outcome.failure_kind = (
                kind
                if kind in (FailureKind.USAGE_LIMIT, FailureKind.RATE_LIMIT)
                else FailureKind.USAGE_LIMIT
            )
            add_error(outcome.errors, terminal.get("message") or "limit reached")
            for notice in self._limit_notices:
                add_error(outcome.errors, notice)
            return
        if result is not None:
            status, finish, kind, errors = claude_result_verdict(
                result,
                last_stop_reason=self._last_stop,
                hints=ClaudeHints(texts=list(self._limit_notices)),
            )
        else:
            status, finish, kind, errors = RunStatus.UNKNOWN, FinishReason.ERROR, None, []
        if name == "run_completed":
            if result is None:
                # "completed" without any result message: nothing says the work was done.
                add_error(errors, "wrapper reported run_completed without a result message")
            outcome.run_status, outcome.finish_reason, outcome.failure_kind = status, finish, kind
            outcome.errors = errors
            return
        # run_failed / run_terminated: the wrapper's text is generic; the result says why.
        outcome.run_status = RunStatus.FAILED if status is RunStatus.COMPLETED else status
        if outcome.run_status is RunStatus.UNKNOWN:
            outcome.run_status = RunStatus.FAILED
        outcome.finish_reason = finish if finish is not FinishReason.STOP else FinishReason.ERROR
        error_text = str(terminal.get("error") or terminal.get("reason") or name)
        outcome.errors = errors
        add_error(outcome.errors, error_text)
        outcome.failure_kind = kind or kind_from_message(error_text) or FailureKind.UNKNOWN


@with_config(extra="forbid")
class WrapperOptions(TypedDict, total=False):
    """``agent_options`` for ``agent="wrapper"``."""

    wrapper_options: dict[str, Any]  # passed as the stdin command's ``options`` (ClaudeCodeOptions)


_IN_WRAPPER_OPTIONS = (
    "the wrapper's own options decide it: pass it in agent_options['wrapper_options']"
)
# max_turns is a ClaudeCodeOptions field the stdin command carries; extra_args go to the
# wrapper's command line. The rest is the wrapper script's business.
WRAPPER_LIMITS = LimitSupport(
    options=frozenset({"max_turns", "extra_args"}),
    missing=MappingProxyType(
        {
            name: _IN_WRAPPER_OPTIONS
            for name in (
                "allowed_tools",
                "disallowed_tools",
                "permission_mode",
                "mcp_servers",
                "fallback_model",
            )
        }
    ),
)


class WrapperFormat(AgentFormat):
    """Start the wrapper and send it one prompt command; stdin is closed after it.

    The command comes from ``base_command`` or ``$AUTOFIX_WRAPPER_COMMAND`` (shell words).
    ``wrapper_options`` go into the command's ``options`` (see WrapperOptions).
    """

    name: ClassVar[str] = "wrapper"
    options_type: ClassVar[type[Mapping[str, Any]]] = WrapperOptions
    limit_support: ClassVar[LimitSupport] = WRAPPER_LIMITS
    supports_resume: ClassVar[bool] = True

    def invocation(self, request: AgentRequest, base_command: list[str] | None) -> Invocation:
        argv = list(base_command or shlex.split(os.environ.get(WRAPPER_COMMAND_ENV, "")))
        if not argv:
            raise ValueError(
                f"the wrapper format needs a command: pass command=[...] or set ${WRAPPER_COMMAND_ENV} "
                "(e.g. 'python scripts/claude_wrapper.py')"
            )
        argv += list(request.limits.extra_args)
        return Invocation(argv=argv, stdin=prompt_command(request))

    def parser(self) -> EventParser:
        return WrapperParser()


def prompt_command(request: AgentRequest) -> str:
    """The one stdin line: ``{"action": "prompt", "prompt": ..., "options": {...}}``."""
    options: dict[str, Any] = {"exit_on_complete": True}
    options.update(cast(WrapperOptions, request.options).get("wrapper_options", {}))
    if request.resume_session_id:
        options["resume"] = request.resume_session_id  # the real ClaudeCodeOptions field
    if request.limits.max_turns is not None:
        options["max_turns"] = request.limits.max_turns
    if request.model:
        options["model"] = request.model
    return json.dumps({"action": "prompt", "prompt": request.prompt, "options": options}) + "\n"
