"""Claude Code headless output: ``--output-format stream-json --verbose`` and ``--output-format json``.

The parser accepts JSON lines, a single (possibly pretty-printed) result object and the
``json --verbose`` array of messages; the last ``type: result`` object decides
(docs/agents/claude.md has every row, with its source).

Verdict, structured fields first:
- ``error_*`` subtypes and ``terminal_reason`` (max turns, the CLI's own spend cap, structured
  output retries, prompt too long, aborted = cancelled);
- ``subtype: success`` with ``is_error: true`` is an API error (the process may exit 0): the
  fine ``api_error`` code (usage_limit_reached, max_output_tokens), a rejected subscription
  ``rate_limit_event``, the synthetic assistant message's ``error`` code, ``api_error_type``
  (Anthropic's error types) and ``api_error_status`` decide; the message text breaks ties;
- ``subtype: success`` without ``is_error``: ``stop_reason`` refusal / max_tokens, and an empty
  ``result`` without structured output is an empty answer;
- no result object → unknown (the caller fails safe).

Retry delay: ``rate_limit_event.rate_limit_info.resetsAt`` (epoch seconds, subscription auth).

Token usage: ``input_tokens`` counts everything sent (plain + cache writes + cache reads) and
``cached_input_tokens`` the cache reads, the same convention as Codex.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
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
    as_list,
    as_str,
    clean_error,
    text_outcome,
)
from autofix.agents.failures import (
    http_status,
    kind_from_message,
    kind_from_status,
    no_terminal_failure,
    refine,
    seconds_until,
    status_for_kind,
)
from autofix.agents.fatal import FatalForm, FatalForms
from autofix.agents.limit_flags import CLAUDE_LIMITS, claude_limit_args
from autofix.agents.limits import LimitSupport
from autofix.agents.watch import RetryNotice, RetryWatcher, WatchSettings, notice_for_status
from autofix.finish import normalise_finish_reason
from autofix.notices import AgentNotice, NoticeCode, add_notice
from autofix.result import FailureKind, FinishReason, RunStatus, TokenUsage

K = FailureKind
_ERROR_SUBTYPES: dict[str, tuple[FailureKind, FinishReason]] = {
    "error_max_turns": (K.MAX_TURNS, FinishReason.MAX_TURNS),
    # The CLI's own --max-budget-usd cap: not autofix's budget (see FailureKind.SPEND_CAP).
    "error_max_budget_usd": (K.SPEND_CAP, FinishReason.ERROR),
    "error_max_structured_output_retries": (K.STRUCTURED_OUTPUT, FinishReason.ERROR),
}
# ``terminal_reason`` values of 2.1.330 that name the failure by themselves.
_TERMINAL_REASONS: dict[str, FailureKind] = {
    "prompt_too_long": K.CONTEXT_WINDOW,
    "blocking_limit": K.CONTEXT_WINDOW,
    "max_turns": K.MAX_TURNS,
    "budget_exhausted": K.SPEND_CAP,
    "structured_output_retry_exhausted": K.STRUCTURED_OUTPUT,
    "malformed_tool_use_exhausted": K.STRUCTURED_OUTPUT,
    "aborted_streaming": K.CANCELLED,
    "aborted_tools": K.CANCELLED,
    "image_error": K.INVALID_REQUEST,
    "hook_stopped": K.CONFIG,
    "stop_hook_prevented": K.CONFIG,
    "turn_setup_failed": K.CONFIG,
}
# The result's fine-grained ``api_error`` code.
_API_ERRORS: dict[str, FailureKind] = {
    "usage_limit_reached": K.USAGE_LIMIT,
    "max_output_tokens": K.MAX_TOKENS,
}
# The synthetic assistant message's ``error`` (SDKAssistantMessageError): the codes that name a
# kind whatever the HTTP status. authentication_failed, rate_limit, server_error, invalid_request
# and unknown are refined by the status and type below.
_ASSISTANT_ERRORS: dict[str, FailureKind] = {
    "billing_error": K.QUOTA_EXHAUSTED,
    "model_not_found": K.INVALID_REQUEST,
    "max_output_tokens": K.MAX_TOKENS,
    "overloaded": K.OVERLOADED,
    "oauth_org_not_allowed": K.PERMISSION,
    "account_on_hold": K.PERMISSION,
    "verification_required": K.PERMISSION,
    "cloud_credential_error": K.AUTH,
}
_ASSISTANT_FALLBACK: dict[str, FailureKind] = {
    "authentication_failed": K.AUTH,
    "rate_limit": K.RATE_LIMIT,
    "server_error": K.SERVER_ERROR,
    "invalid_request": K.INVALID_REQUEST,
}
# Anthropic's API error types (``api_error_type``): https://docs.claude.com/en/api/errors
_API_ERROR_TYPES: dict[str, FailureKind] = {
    "invalid_request_error": K.INVALID_REQUEST,
    "authentication_error": K.AUTH,
    "permission_error": K.PERMISSION,
    "not_found_error": K.INVALID_REQUEST,
    "request_too_large": K.INVALID_REQUEST,
    "rate_limit_error": K.RATE_LIMIT,
    "billing_error": K.QUOTA_EXHAUSTED,
    "api_error": K.SERVER_ERROR,
    "timeout_error": K.SERVER_ERROR,
    "overloaded_error": K.OVERLOADED,
}
# Subscription windows of a rejected ``rate_limit_event``: a plan's usage limit, not a rate.
_PLAN_WINDOWS = frozenset({"five_hour", "seven_day", "seven_day_opus", "seven_day_sonnet"})


@dataclass
class ClaudeHints:
    """What the stream said before the result: the structured clues the result may lack."""

    assistant_error: str | None = None  # the synthetic assistant message's ``error`` code
    usage_limit: bool = False  # a rejected subscription rate_limit_event
    resets_at: float | None = None  # its reset time, epoch seconds
    texts: list[str] = field(default_factory=list)  # wording seen with those, for tie-breaks
    # A hook kept the prompt from the model (system/informational prevent_continuation).
    prompt_blocked: str | None = None
    # A hook cut the turn short (a stop-hook notification, terminal_reason hook_stopped).
    hook_problem: str | None = None


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


def api_error_kind(result: dict[str, Any], hints: ClaudeHints, wording: str) -> FailureKind:
    """The kind of an API-error result: structured fields in order of precision, then wording."""
    fine = _API_ERRORS.get(as_str(result.get("api_error")) or "")
    if fine is not None:
        return fine
    if hints.usage_limit:
        return K.USAGE_LIMIT
    code = hints.assistant_error or ""
    if code in _ASSISTANT_ERRORS:
        return _ASSISTANT_ERRORS[code]
    status = http_status(result.get("api_error_status"))
    by_type = _API_ERROR_TYPES.get(as_str(result.get("api_error_type")) or "")
    by_status = kind_from_status(status)
    by_code = _ASSISTANT_FALLBACK.get(code)
    if by_code is K.AUTH and by_status is K.PERMISSION:
        return K.PERMISSION  # claude files a 403 under authentication_failed
    structured = by_type or by_status or by_code
    by_text = kind_from_message(wording)
    if structured is None:
        return by_text or K.API_ERROR
    if status is None and structured is K.SERVER_ERROR and by_text is K.CONNECTION:
        return K.CONNECTION  # no HTTP answer at all: a refused, reset or dropped connection
    return refine(structured, wording)


def _names_hook(text: str | None) -> bool:
    """The CLI's own message that a hook blocked or stopped the prompt ([H])."""
    found = FATAL_FORMS.match(text or "")
    return found is not None and found.kind is K.CONFIG and "hook" in found.text


def claude_result_verdict(
    result: dict[str, Any],
    *,
    last_stop_reason: str | None = None,
    hints: ClaudeHints | None = None,
    has_structured_output: bool = False,
) -> tuple[RunStatus, FinishReason, FailureKind | None, list[str]]:
    """Run status, finish reason, failure kind and errors for one Claude result object."""
    hints = hints or ClaudeHints()
    subtype = as_str(result.get("subtype")) or ""
    is_error = result.get("is_error") is True
    errors: list[str] = []
    items = result.get("errors")
    for item in items if isinstance(items, list) else []:
        add_error(errors, item)
    stop = as_str(result.get("stop_reason")) or last_stop_reason
    finish = normalise_finish_reason(stop)
    terminal = _TERMINAL_REASONS.get(as_str(result.get("terminal_reason")) or "")

    if subtype == "success" and not is_error:
        turns = result.get("num_turns")
        if turns == 0 and not has_structured_output:
            # No model turn ran: the "result" is the CLI's own message (a hook kept the prompt
            # from the model, [H]), never an answer.
            text = result.get("result")
            blocked = hints.prompt_blocked or (text if isinstance(text, str) else None)
            add_error(errors, blocked or "claude ran no model turn")
            why = K.CONFIG if hints.prompt_blocked or _names_hook(blocked) else K.EMPTY_ANSWER
            return RunStatus.COMPLETED, FinishReason.ERROR, why, errors
        if finish is FinishReason.REFUSAL:
            return RunStatus.COMPLETED, finish, K.REFUSAL, errors
        if finish is FinishReason.LENGTH:
            return RunStatus.COMPLETED, finish, K.MAX_TOKENS, errors
        text = result.get("result")
        hook = hints.hook_problem or (
            f"a hook stopped the turn ({result.get('terminal_reason')})"
            if terminal is K.CONFIG
            else None
        )
        empty = not (isinstance(text, str) and text.strip())
        if not has_structured_output and empty and hook is not None:
            add_error(errors, hook)  # why there is no answer
            return RunStatus.COMPLETED, FinishReason.ERROR, K.CONFIG, errors
        if not has_structured_output and empty:
            add_error(errors, "claude finished without any answer text")
            return RunStatus.COMPLETED, FinishReason.STOP, K.EMPTY_ANSWER, errors
        return RunStatus.COMPLETED, finish or FinishReason.STOP, None, errors

    if subtype in _ERROR_SUBTYPES:
        known_kind, reason = _ERROR_SUBTYPES[subtype]
        if not errors:
            add_error(errors, f"claude stopped with {subtype}")
        return RunStatus.FAILED, reason, known_kind, errors

    if subtype == "success" or subtype.startswith("error"):
        text = result.get("result")
        if isinstance(text, str) and text.strip():
            errors.insert(0, clean_error(text))  # the API error message comes first
        kind = terminal
        if kind is None and finish is FinishReason.REFUSAL:
            kind = K.REFUSAL
        if kind is None and subtype == "success":
            kind = api_error_kind(result, hints, "\n".join([*errors, *hints.texts]))
        if kind is None and subtype == "error_during_execution" and result.get("num_turns") == 0:
            kind = K.CONFIG  # no turn ever started: one of the CLI's start-up refusals ([R])
        if kind is None:  # error_during_execution without a reason we know
            kind = kind_from_message("\n".join(errors)) or K.UNKNOWN
        if not errors:
            add_error(errors, f"claude reported {subtype or 'an error'} without a message")
        if kind is K.CANCELLED:
            return RunStatus.CANCELLED, FinishReason.ERROR, kind, errors
        reason = FinishReason.MAX_TURNS if kind is K.MAX_TURNS else FinishReason.ERROR
        return status_for_kind(kind), reason, kind, errors

    # A result we do not recognise: never call it a success.
    add_error(errors, f"claude result with unknown subtype {subtype!r}")
    return RunStatus.UNKNOWN, FinishReason.ERROR, K.UNKNOWN, errors


# The tool error of a tool the session was not given ([P]: "No such tool available: Bash. Bash
# is disabled for this session").
_DISABLED_TOOL = re.compile(r"\bis disabled for this session\b")
# MCP server states in the init event that mean the server is not there to use.
_MCP_DOWN = frozenset({"failed", "needs-auth"})


class ClaudeNotices:
    """What Claude reports about its run besides the result: tools it refused
    (``system/permission_denied``, the result's ``permission_denials``), MCP servers that did not
    connect (the init event's ``mcp_servers``), compaction (``system/compact_boundary``)."""

    def __init__(self) -> None:
        self.notices: list[AgentNotice] = []
        self._denied_ids: set[str] = set()

    def add(self, code: NoticeCode, detail: str) -> None:
        add_notice(self.notices, AgentNotice(code=code, detail=detail))

    def denied(self, item: dict[str, Any]) -> None:
        tool_id = as_str(item.get("tool_use_id")) or ""
        if tool_id and tool_id in self._denied_ids:
            return
        self._denied_ids.add(tool_id)
        self.add(NoticeCode.DENIED_TOOL, as_str(item.get("tool_name")) or "a tool")

    def system(self, event: dict[str, Any]) -> None:
        subtype = event.get("subtype")
        if subtype == "init":
            for server in as_list(event.get("mcp_servers")):
                status = as_str(as_dict(server).get("status"))
                if status in _MCP_DOWN:
                    name = as_str(as_dict(server).get("name")) or "?"
                    self.add(NoticeCode.MCP_SERVER_FAILED, f"{name}: {status}")
        elif subtype == "permission_denied":
            self.denied(event)
        elif subtype == "compact_boundary":
            trigger = as_str(as_dict(event.get("compact_metadata")).get("trigger")) or "auto"
            self.add(NoticeCode.COMPACTED, f"{trigger} compaction")


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
        self._structured_tool_input: Any = None
        self._hints = ClaudeHints()
        self._notices = ClaudeNotices()

    def _handle(self, value: dict[str, Any]) -> None:
        self._events += 1
        session = as_str(value.get("session_id"))
        if session:
            self._session_id = session
        kind = value.get("type")
        if kind == "system":
            if value.get("subtype") == "init":
                self._model = as_str(value.get("model")) or self._model
            self._notices.system(value)
            self._hook_hints(value)
        elif kind == "assistant":
            self._assistant(value)
        elif kind == "user":
            self._user(value)
        elif kind == "rate_limit_event":
            self._rate_limit(as_dict(value.get("rate_limit_info")))
        elif kind == "result":
            self._result = value
            for denial in as_list(value.get("permission_denials")):
                self._notices.denied(as_dict(denial))

    def _hook_hints(self, event: dict[str, Any]) -> None:
        """A hook that kept the prompt from the model, or cut a turn short (docs: [H])."""
        subtype = event.get("subtype")
        if subtype == "informational" and event.get("prevent_continuation") is True:
            self._hints.prompt_blocked = clean_error(event.get("content") or "blocked by a hook")
        elif subtype == "notification" and "hook" in str(event.get("key") or ""):
            self._hints.hook_problem = clean_error(event.get("text") or event.get("key"))

    def _rate_limit(self, info: dict[str, Any]) -> None:
        if info.get("status") != "rejected":
            return  # "allowed" / "allowed_warning" events come with successful runs too
        if str(info.get("rateLimitType") or "") in _PLAN_WINDOWS:
            self._hints.usage_limit = True
        resets = as_float(info.get("resetsAt"))
        if resets is not None:
            self._hints.resets_at = resets

    def _assistant(self, event: dict[str, Any]) -> None:
        message = as_dict(event.get("message"))
        self._model = as_str(message.get("model")) or self._model
        stop = as_str(message.get("stop_reason"))
        if stop:
            self._last_stop = stop
        error = as_str(event.get("error"))
        if error:
            self._hints.assistant_error = error
            params = as_dict(as_dict(event.get("api_error_params")).get("rate_limit_info"))
            if params:
                self._rate_limit(params)
        content = message.get("content")
        for block in content if isinstance(content, list) else []:
            if not isinstance(block, dict):
                continue
            if block.get("type") == "tool_use" and block.get("name") == "StructuredOutput":
                self._structured_tool_input = block.get("input")

    def _user(self, event: dict[str, Any]) -> None:
        """A tool the session has no access to (``--disallowedTools``, ``--tools``) comes back
        as a tool error of the CLI's own wording, not as a permission denial."""
        for block in as_list(as_dict(event.get("message")).get("content")):
            block = as_dict(block)
            if block.get("type") != "tool_result" or block.get("is_error") is not True:
                continue
            text = block.get("content")
            if isinstance(text, str) and _DISABLED_TOOL.search(text[:500]):
                self._notices.denied(block)

    def _finish(self, exit_code: int | None, stderr_tail: str) -> AgentOutcome:
        for value in self._reader.finish():
            self._handle(value)
        outcome = AgentOutcome(
            session_id=self._session_id,
            model=self._model,
            events=self._events,
            non_json_lines=self._reader.non_json_lines,
            notices=list(self._notices.notices),
        )
        result = self._result
        if result is None and self.text_mode:
            # Exit 1 before any output is one of claude's start-up refusals ([F] in
            # docs/agents/claude.md): its API errors always print a result or their message.
            return text_outcome(
                self.agent_name,
                self.text_answer,
                exit_code,
                stderr_tail,
                silent_failure=K.CONFIG,
            )
        if result is None:
            kind, message = no_terminal_failure(
                self.agent_name, exit_code, stderr_tail, self._reader.non_json_tail
            )
            outcome.failure_kind = kind
            outcome.errors = [message]
            return outcome
        structured = result.get("structured_output")
        status, finish, kind, errors = claude_result_verdict(
            result,
            last_stop_reason=self._last_stop,
            hints=self._hints,
            has_structured_output=structured is not None or self._structured_tool_input is not None,
        )
        outcome.run_status = status
        outcome.finish_reason = finish
        outcome.failure_kind = kind
        outcome.errors = errors
        subtype = as_str(result.get("subtype")) or "?"
        outcome.terminal_event = f"result/{subtype}"
        text = result.get("result")
        if isinstance(text, str) and result.get("is_error") is not True:
            outcome.final_text = text  # an API error's text is its message, not an answer
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
        if kind is not None and self._hints.resets_at is not None:
            outcome.retry_after_s = seconds_until(self._hints.resets_at)
        return outcome


class ClaudeWatcher(RetryWatcher):
    """``{"type":"system","subtype":"api_retry","error_status":S,"error":E}``: one per retry."""

    def notice_from_event(self, event: dict[str, Any]) -> RetryNotice | None:
        if event.get("type") != "system" or event.get("subtype") != "api_retry":
            return None
        status = http_status(event.get("error_status"))
        code = as_str(event.get("error")) or ""
        kind = _ASSISTANT_ERRORS.get(code) or _ASSISTANT_FALLBACK.get(code)
        return notice_for_status(status, f"claude api_retry {status} {code}".strip(), kind)


# What ``claude -p`` prints when it refuses to start or stops (2.1.332; docs/agents/claude.md,
# anchors [F], [S], [M], [P]), and its text mode's error answers ([E]): every path exits 1.
_START = "start-up refusal, exit 1 [F]"
FATAL_FORMS = FatalForms(
    [
        FatalForm(r"error: unknown option '", K.CONFIG, "commander [F]"),
        FatalForm(r"error: option '[^'\n]{1,200}' argument '", K.CONFIG, "commander [F]"),
        FatalForm(r"error: (?:missing required argument|too many arguments)", K.CONFIG, _START),
        FatalForm(r"Error: When using --print, ", K.CONFIG, _START),
        FatalForm(r"Error: Input must be provided either through stdin", K.CONFIG, _START),
        FatalForm(r"Error: --input-format=", K.CONFIG, _START),
        FatalForm(r"Error parsing streaming input line", K.CONFIG, _START),
        FatalForm(r"Error: --json-schema is not valid JSON", K.CONFIG, _START),
        FatalForm(r"Error: Settings file not found: ", K.CONFIG, _START),
        FatalForm(r"Error: Invalid MCP configuration", K.CONFIG, "MCP config [M]"),
        FatalForm(r"Error: MCP tool [^\n]{1,300}?--permission-prompt-tool", K.CONFIG, "[P]"),
        FatalForm(r"--dangerously-skip-permissions cannot be used with root", K.CONFIG, "[P]"),
        FatalForm(r"No conversation found with session ID: ", K.CONFIG, "--resume [S]"),
        FatalForm(r"No conversation found to continue", K.CONFIG, "--continue [S]"),
        FatalForm(r"Error: --resume requires a valid session ID", K.CONFIG, "--resume [S]"),
        FatalForm(r"Error: Invalid session ID", K.CONFIG, "--session-id [S]"),
        # A hook kept the prompt from the model: text mode prints its message as the answer.
        FatalForm(r"UserPromptSubmit operation blocked by hook", K.CONFIG, "hooks [H]"),
        FatalForm(r"Operation stopped by hook: ", K.CONFIG, "hooks [H]"),
        # Text mode's failures, on stdout: the result's error text.
        FatalForm(r"Error: Reached max turns", K.MAX_TURNS, "text mode [R]"),
        FatalForm(r"Error: Reached maximum budget", K.SPEND_CAP, "text mode [R]"),
        FatalForm(
            r"Error: Failed to provide valid structured output",
            K.STRUCTURED_OUTPUT,
            "text mode, error_max_structured_output_retries [R]",
        ),
        FatalForm(r"Credit balance is too low", K.QUOTA_EXHAUSTED, "billing_error [E]"),
        FatalForm(r"(?:Invalid API key|Not logged in) · ", K.AUTH, "authentication_failed [E]"),
        FatalForm(r"Prompt is too long", K.CONTEXT_WINDOW, "prompt_too_long [T]"),
        FatalForm(r"API Error: ", None, "synthetic assistant message [E]", evidence=False),
    ]
)


@with_config(extra="forbid")
class ClaudeOptions(TypedDict, total=False):
    """``agent_options`` for ``agent="claude"``.

    ``permission_mode`` and ``allowed_tools`` are the typed options of the same names
    (AgentLimits), kept for older DAGs: giving both ways is an error."""

    output_format: Literal["stream-json", "json", "text"]  # default stream-json
    permission_mode: str  # e.g. "acceptEdits", "plan", "bypassPermissions"
    max_budget_usd: float
    allowed_tools: list[str]
    append_system_prompt: str


class ClaudeFormat(AgentFormat):
    """``claude -p PROMPT --output-format stream-json --verbose``.

    Options: ClaudeOptions; limits: every AgentLimits option (CLAUDE_LIMITS).
    """

    name: ClassVar[str] = "claude"
    options_type: ClassVar[type[Mapping[str, Any]]] = ClaudeOptions
    limit_support: ClassVar[LimitSupport] = CLAUDE_LIMITS
    legacy_limit_keys: ClassVar[Mapping[str, str]] = MappingProxyType(
        {"permission_mode": "permission_mode", "allowed_tools": "allowed_tools"}
    )
    supports_resume: ClassVar[bool] = True
    structured_result: ClassVar[bool] = True
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

    def legacy_limits(self, options: Mapping[str, Any]) -> dict[str, tuple[str, Any]]:
        found: dict[str, tuple[str, Any]] = {}
        if options.get("permission_mode"):
            found["permission_mode"] = ("permission_mode", options["permission_mode"])
        if options.get("allowed_tools"):
            found["allowed_tools"] = ("allowed_tools", tuple(options["allowed_tools"]))
        return found

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
        if request.model:
            argv += ["--model", request.model]
        limit_args, cleanup = claude_limit_args(request.limits)
        argv += limit_args
        if options.get("max_budget_usd") is not None:
            argv += ["--max-budget-usd", str(options["max_budget_usd"])]
        if options.get("append_system_prompt"):
            argv += ["--append-system-prompt", options["append_system_prompt"]]
        argv += list(request.limits.extra_args)
        return Invocation(argv=argv, stdin=stdin, cleanup=cleanup)

    def parser(self) -> EventParser:
        return ClaudeParser()

    def watcher(self, settings: WatchSettings) -> RetryWatcher | None:
        return ClaudeWatcher(settings)

    def fatal_forms(self) -> FatalForms | None:
        return FATAL_FORMS

    def asks_for_text(self, options: Mapping[str, Any]) -> bool | None:
        return options.get("output_format") == "text"
