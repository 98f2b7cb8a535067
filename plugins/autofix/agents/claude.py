"""Claude Code headless output: ``--output-format stream-json --verbose`` and ``--output-format json``.

The parser accepts JSON lines, a single (possibly pretty-printed) result object and the
``json --verbose`` array of messages; the last ``type: result`` object decides.

Verdict (shared/agent-formats/README.md §3.4):
- ``subtype: success`` and not ``is_error`` → completed; ``stop_reason`` max_tokens → length,
  refusal → refusal.
- ``subtype: success`` with ``is_error: true`` → failed (an API error; the process may exit 0).
  ``api_error_status`` or the wording gives the kind; rate and usage limits → limit_reached.
- ``error_*`` subtypes → failed (max turns, budget, structured output retries, ...).
- no result object → unknown (the caller fails safe).

Token usage: ``input_tokens`` counts everything sent (plain + cache writes + cache reads) and
``cached_input_tokens`` the cache reads, the same convention as Codex.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, ClassVar, Literal, cast

from pydantic import with_config
from typing_extensions import TypedDict

from autofix.agents.base import (
    MAX_PROMPT_ARG_CHARS,
    AgentFormat,
    AgentOutcome,
    AgentRequest,
    EventParser,
    Invocation,
)
from autofix.agents.events import (
    JsonEventParser,
    add_error,
    as_dict,
    as_float,
    as_int,
    as_str,
    clean_error,
)
from autofix.agents.failures import (
    classify_error_text,
    kind_from_status,
    no_terminal_failure,
    status_for_kind,
)
from autofix.result import FailureKind, FinishReason, RunStatus, TokenUsage, normalise_finish_reason

_ERROR_SUBTYPES: dict[str, tuple[FailureKind, FinishReason]] = {
    "error_max_turns": (FailureKind.MAX_TURNS, FinishReason.MAX_TURNS),
    "error_max_budget_usd": (FailureKind.BUDGET, FinishReason.ERROR),
    "error_max_structured_output_retries": (FailureKind.STRUCTURED_OUTPUT, FinishReason.ERROR),
}


def claude_usage(usage: object) -> TokenUsage:
    data = as_dict(usage)
    cache_read = as_int(data.get("cache_read_input_tokens"))
    return TokenUsage(
        input_tokens=as_int(data.get("input_tokens"))
        + as_int(data.get("cache_creation_input_tokens"))
        + cache_read,
        output_tokens=as_int(data.get("output_tokens")),
        cached_input_tokens=cache_read,
    )


def claude_result_verdict(
    result: dict[str, Any],
    *,
    last_stop_reason: str | None = None,
    hint: str = "",
) -> tuple[RunStatus, FinishReason, FailureKind | None, list[str]]:
    """Run status, finish reason, failure kind and errors for one Claude result object.

    ``hint`` is extra wording seen before the result (an assistant ``error`` code, a rejected
    rate-limit event) used when the result itself does not say why it failed.
    """
    subtype = as_str(result.get("subtype")) or ""
    is_error = result.get("is_error") is True
    errors: list[str] = []
    for item in result.get("errors") or []:
        add_error(errors, item)
    stop = as_str(result.get("stop_reason")) or last_stop_reason

    if subtype == "success" and not is_error:
        finish = normalise_finish_reason(stop) or FinishReason.STOP
        if finish is FinishReason.REFUSAL:
            return RunStatus.COMPLETED, finish, FailureKind.REFUSAL, errors
        return RunStatus.COMPLETED, finish, None, errors

    if subtype in _ERROR_SUBTYPES:
        known_kind, finish = _ERROR_SUBTYPES[subtype]
        if not errors:
            add_error(errors, f"claude stopped with {subtype}")
        return RunStatus.FAILED, finish, known_kind, errors

    if subtype == "success" or subtype.startswith("error"):
        text = result.get("result")
        if isinstance(text, str) and text.strip():
            errors.insert(0, clean_error(text))  # the API error message comes first
        wording = "\n".join([*errors, hint])
        kind: FailureKind | None = classify_error_text(wording)
        if (
            kind is not FailureKind.USAGE_LIMIT
        ):  # a usage limit also answers 429: keep the specific kind
            kind = kind_from_status(result.get("api_error_status")) or kind
        if kind is None:
            kind = FailureKind.API_ERROR if subtype == "success" else FailureKind.UNKNOWN
        if not errors:
            add_error(errors, f"claude reported {subtype or 'an error'} without a message")
        return status_for_kind(kind), FinishReason.ERROR, kind, errors

    # A result we do not recognise: never call it a success.
    add_error(errors, f"claude result with unknown subtype {subtype!r}")
    return RunStatus.UNKNOWN, FinishReason.ERROR, FailureKind.UNKNOWN, errors


class ClaudeParser(JsonEventParser):
    """Claude ``stream-json`` lines, or the ``json`` object/array, → AgentOutcome."""

    agent_name = "claude"
    accepts_arrays = True

    def __init__(self) -> None:
        super().__init__()
        self._result: dict[str, Any] | None = None
        self._session_id: str | None = None
        self._model: str | None = None
        self._last_stop: str | None = None
        self._last_text: str | None = None
        self._structured_tool_input: Any = None
        self._hints: list[str] = []

    def _handle(self, value: dict[str, Any]) -> None:
        self._events += 1
        session = as_str(value.get("session_id"))
        if session:
            self._session_id = session
        kind = value.get("type")
        if kind == "system" and value.get("subtype") == "init":
            self._model = as_str(value.get("model")) or self._model
        elif kind == "assistant":
            self._assistant(value)
        elif kind == "rate_limit_event":
            info = as_dict(value.get("rate_limit_info"))
            if info.get("status") == "rejected":
                window = str(info.get("rateLimitType") or "")
                self._hints.append(
                    "usage limit reached"
                    if window in ("five_hour", "seven_day", "seven_day_opus")
                    else "rate limit"
                )
        elif kind == "result":
            self._result = value

    def _assistant(self, event: dict[str, Any]) -> None:
        message = as_dict(event.get("message"))
        self._model = as_str(message.get("model")) or self._model
        stop = as_str(message.get("stop_reason"))
        if stop:
            self._last_stop = stop
        error = as_str(event.get("error"))
        if error:
            self._hints.append(error)
        for block in message.get("content") or []:
            if not isinstance(block, dict):
                continue
            if block.get("type") == "text" and isinstance(block.get("text"), str):
                self._last_text = block["text"]
            elif block.get("type") == "tool_use" and block.get("name") == "StructuredOutput":
                self._structured_tool_input = block.get("input")

    def _finish(self, exit_code: int | None, stderr_tail: str) -> AgentOutcome:
        for value in self._reader.finish():
            self._handle(value)
        outcome = AgentOutcome(
            session_id=self._session_id,
            model=self._model,
            events=self._events,
            non_json_lines=self._reader.non_json_lines,
        )
        result = self._result
        if result is None:
            kind, message = no_terminal_failure(
                self.agent_name, exit_code, stderr_tail, self._reader.non_json_tail
            )
            outcome.failure_kind = kind
            outcome.errors = [message]
            return outcome
        status, finish, kind, errors = claude_result_verdict(
            result, last_stop_reason=self._last_stop, hint="\n".join(self._hints)
        )
        outcome.run_status = status
        outcome.finish_reason = finish
        outcome.failure_kind = kind
        outcome.errors = errors
        subtype = as_str(result.get("subtype")) or "?"
        outcome.terminal_event = f"result/{subtype}"
        text = result.get("result")
        outcome.final_text = text if isinstance(text, str) else None
        structured = result.get("structured_output")
        if structured is None and status is RunStatus.COMPLETED:
            structured = self._structured_tool_input
        outcome.structured_output = structured
        outcome.session_id = as_str(result.get("session_id")) or self._session_id
        cost = as_float(result.get("total_cost_usd"))
        outcome.cost_usd = cost if cost is not None else as_float(result.get("cost_usd"))
        outcome.usage = claude_usage(result.get("usage"))
        turns = result.get("num_turns")
        outcome.num_turns = (
            turns if isinstance(turns, int) and not isinstance(turns, bool) else None
        )
        return outcome


@with_config(extra="forbid")
class ClaudeOptions(TypedDict, total=False):
    """``agent_options`` for ``agent="claude"``."""

    output_format: Literal["stream-json", "json"]  # default stream-json
    permission_mode: str  # e.g. "acceptEdits", "plan", "bypassPermissions"
    max_budget_usd: float
    allowed_tools: list[str]
    append_system_prompt: str


class ClaudeFormat(AgentFormat):
    """``claude -p PROMPT --output-format stream-json --verbose``.

    Options: ClaudeOptions.
    """

    name: ClassVar[str] = "claude"
    options_type: ClassVar[type[Mapping[str, Any]]] = ClaudeOptions
    supports_resume: ClassVar[bool] = True
    default_command: ClassVar[tuple[str, ...]] = ("claude",)
    edits_files: ClassVar[bool] = True
    # Enough to edit files and run git and tests with nobody at the prompt; the fixing
    # application works on a branch, so every change stays reviewable.
    default_options: ClassVar[Mapping[str, Any]] = MappingProxyType(
        {
            "permission_mode": "acceptEdits",
            "allowed_tools": ("Read", "Edit", "Write", "Glob", "Grep", "Bash"),
        }
    )

    def invocation(self, request: AgentRequest, base_command: list[str] | None) -> Invocation:
        argv = list(base_command or self.default_command)
        options = cast(ClaudeOptions, request.options)
        output_format = options.get("output_format", "stream-json")
        stdin: str | None = None
        # commander reads a prompt starting with "-" as a flag; huge prompts overflow argv.
        if request.prompt.startswith("-") or len(request.prompt) > MAX_PROMPT_ARG_CHARS:
            argv.append("-p")
            stdin = request.prompt
        else:
            argv += ["-p", request.prompt]
        argv += ["--output-format", output_format]
        if output_format == "stream-json":
            argv.append("--verbose")  # mandatory with stream-json in print mode
        if request.resume_session_id:
            argv.append(f"--resume={request.resume_session_id}")  # "=": an id may start with "-"
        if request.output_schema is not None:
            argv += ["--json-schema", json.dumps(request.output_schema, separators=(",", ":"))]
        if request.max_turns is not None:
            argv += ["--max-turns", str(request.max_turns)]
        if request.model:
            argv += ["--model", request.model]
        if options.get("permission_mode"):
            argv += ["--permission-mode", options["permission_mode"]]
        if options.get("max_budget_usd") is not None:
            argv += ["--max-budget-usd", str(options["max_budget_usd"])]
        if options.get("allowed_tools"):
            argv += ["--allowedTools", ",".join(options["allowed_tools"])]
        if options.get("append_system_prompt"):
            argv += ["--append-system-prompt", options["append_system_prompt"]]
        argv += list(request.extra_args)
        return Invocation(argv=argv, stdin=stdin)

    def parser(self) -> EventParser:
        return ClaudeParser()
