"""Gemini CLI: ``gemini -p PROMPT --output-format json`` (and ``stream-json``), README §5.

- ``json``: one pretty-printed object on stdout with ``response``, ``session_id``, ``stats``.
  Fatal errors print ``{"session_id", "error": {type, message, code}}`` on **stderr** and exit
  with the code, so :meth:`GeminiParser.finish` looks for that object in the stderr tail.
- ``stream-json``: ``init``, ``message`` deltas, ``tool_use``/``tool_result``, ``error``
  (not terminal) and a ``result`` line that decides. Final text: assistant deltas after the
  last tool result.
- Exit codes: 41 auth, 42 bad input, 52 config, 53 turn limit, 55 untrusted folder, 130
  cancelled, 1 general/API error (the wording refines it, e.g. 429 → rate_limit).

Usage: ``input_tokens`` = tokens sent (incl. cached), ``thinking_tokens`` = thoughts + tool
tokens, so ``TokenUsage.total`` equals Gemini's own total.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, ClassVar, Literal, cast

from pydantic import with_config
from typing_extensions import TypedDict

from autofix.agents.base import AgentFormat, AgentOutcome, AgentRequest, EventParser, Invocation
from autofix.agents.events import (
    JsonEventParser,
    add_error,
    as_dict,
    as_int,
    as_str,
    json_docs,
)
from autofix.agents.failures import classify_error_text, no_terminal_failure, status_for_kind
from autofix.result import FailureKind, FinishReason, RunStatus, TokenUsage, normalise_finish_reason

_STREAM_TYPES = frozenset({"init", "message", "tool_use", "tool_result", "error", "result"})

EXIT_CODE_KINDS: dict[int, FailureKind] = {
    41: FailureKind.AUTH,
    42: FailureKind.INVALID_REQUEST,
    52: FailureKind.INVALID_REQUEST,
    53: FailureKind.MAX_TURNS,
    55: FailureKind.INVALID_REQUEST,
}

ERROR_TYPE_KINDS: dict[str, FailureKind] = {
    "FatalAuthenticationError": FailureKind.AUTH,
    "FatalInputError": FailureKind.INVALID_REQUEST,
    "FatalConfigError": FailureKind.INVALID_REQUEST,
    "FatalUntrustedWorkspaceError": FailureKind.INVALID_REQUEST,
    "FatalTurnLimitedError": FailureKind.MAX_TURNS,
    "FatalBudgetExceededError": FailureKind.BUDGET,
}


def _code(value: object) -> int | None:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str) and value.isdigit():
        return int(value)
    return None


def _error_verdict(
    error: dict[str, Any], exit_code: int | None
) -> tuple[RunStatus, FinishReason, FailureKind | None]:
    err_type = str(error.get("type") or "")
    message = str(error.get("message") or "")
    code = _code(error.get("code"))
    if code is None:
        code = exit_code
    if err_type == "FatalCancellationError" or code == 130:
        return RunStatus.CANCELLED, FinishReason.ERROR, None
    finish = _finish_from_text(message)
    if finish is FinishReason.REFUSAL:
        return RunStatus.FAILED, finish, FailureKind.REFUSAL
    if finish is FinishReason.LENGTH:
        return RunStatus.FAILED, finish, None
    kind = ERROR_TYPE_KINDS.get(err_type)
    if kind is None and code is not None:
        kind = EXIT_CODE_KINDS.get(code)
    if kind is None:
        kind = classify_error_text(f"{err_type}\n{message}") or FailureKind.API_ERROR
    reason = FinishReason.MAX_TURNS if kind is FailureKind.MAX_TURNS else FinishReason.ERROR
    return status_for_kind(kind), reason, kind


def _finish_from_text(message: str) -> FinishReason | None:
    upper = message.upper()
    if "MAX_TOKENS" in upper:
        return FinishReason.LENGTH
    if any(word in upper for word in ("SAFETY", "RECITATION", "PROHIBITED_CONTENT", "BLOCKLIST")):
        return FinishReason.REFUSAL
    return None


def _json_usage(stats: dict[str, Any]) -> tuple[TokenUsage, str | None]:
    """Sum ``stats.models.*.tokens``; the model with most tokens is reported as the model."""
    usage = TokenUsage()
    top: tuple[int, str | None] = (-1, None)
    for name, data in as_dict(stats.get("models")).items():
        tokens = as_dict(as_dict(data).get("tokens"))
        usage = TokenUsage(
            input_tokens=usage.input_tokens + as_int(tokens.get("prompt") or tokens.get("input")),
            cached_input_tokens=usage.cached_input_tokens + as_int(tokens.get("cached")),
            output_tokens=usage.output_tokens + as_int(tokens.get("candidates")),
            thinking_tokens=usage.thinking_tokens
            + as_int(tokens.get("thoughts"))
            + as_int(tokens.get("tool")),
        )
        total = as_int(tokens.get("total"))
        if total > top[0]:
            top = (total, str(name))
    return usage, top[1]


def _stream_usage(stats: dict[str, Any]) -> TokenUsage:
    input_tokens = as_int(stats.get("input_tokens"))
    output_tokens = as_int(stats.get("output_tokens"))
    total = as_int(stats.get("total_tokens"))
    return TokenUsage(
        input_tokens=input_tokens,
        output_tokens=output_tokens,
        cached_input_tokens=as_int(stats.get("cached")),
        thinking_tokens=max(0, total - input_tokens - output_tokens),
    )


class GeminiParser(JsonEventParser):
    """Gemini ``json`` object or ``stream-json`` lines → AgentOutcome."""

    agent_name = "gemini"

    def __init__(self) -> None:
        super().__init__()
        self._session_id: str | None = None
        self._model: str | None = None
        self._document: dict[str, Any] | None = None  # json mode
        self._result: dict[str, Any] | None = None  # stream-json mode
        self._text_parts: list[str] = []
        self._stream_errors: list[str] = []

    def _handle(self, value: dict[str, Any]) -> None:
        self._events += 1
        session = as_str(value.get("session_id"))
        if session:
            self._session_id = session
        kind = value.get("type")
        if kind not in _STREAM_TYPES:
            if any(key in value for key in ("response", "error", "stats")):
                self._document = value
            return
        if kind == "init":
            self._model = as_str(value.get("model")) or self._model
        elif kind == "message" and value.get("role") == "assistant":
            content = value.get("content")
            if isinstance(content, str):
                if not value.get("delta"):
                    self._text_parts = []
                self._text_parts.append(content)
        elif kind == "tool_result":
            self._text_parts = []  # the answer is what the model says after its last tool call
        elif kind == "error":
            message = as_str(value.get("message"))
            if message and value.get("severity") == "error":
                add_error(self._stream_errors, message)
        elif kind == "result":
            self._result = value

    def _finish(self, exit_code: int | None, stderr_tail: str) -> AgentOutcome:
        for value in self._reader.finish():
            if isinstance(value, dict):
                self._handle(value)
        outcome = AgentOutcome(
            events=self._events,
            non_json_lines=self._reader.non_json_lines,
            model=self._model,
        )
        if self._result is not None:
            self._finish_stream(outcome, self._result, exit_code)
        elif self._document is not None:
            self._finish_document(outcome, self._document, exit_code)
        else:
            stderr_error = _stderr_error(stderr_tail)
            if stderr_error is not None:
                self._finish_document(outcome, stderr_error, exit_code)
                outcome.terminal_event = f"stderr/{outcome.terminal_event}"
            else:
                kind, message = no_terminal_failure(
                    self.agent_name, exit_code, stderr_tail, self._reader.non_json_tail
                )
                if kind is None and exit_code is not None:
                    kind = EXIT_CODE_KINDS.get(exit_code)
                outcome.failure_kind = kind
                outcome.errors = [message]
        outcome.session_id = outcome.session_id or self._session_id
        return outcome

    def _finish_stream(
        self, outcome: AgentOutcome, result: dict[str, Any], exit_code: int | None
    ) -> None:
        outcome.usage = _stream_usage(as_dict(result.get("stats")))
        status = result.get("status")
        outcome.terminal_event = f"result/{status}"
        if status == "success":
            outcome.run_status = RunStatus.COMPLETED
            outcome.final_text = "".join(self._text_parts) if self._text_parts else None
            finish = normalise_finish_reason(
                result.get("finish_reason") or result.get("finishReason")
            )
            outcome.finish_reason = finish or FinishReason.STOP
            if outcome.finish_reason is FinishReason.REFUSAL:
                outcome.failure_kind = FailureKind.REFUSAL
            return
        error = as_dict(result.get("error"))
        outcome.errors = list(self._stream_errors)
        add_error(outcome.errors, error.get("message") or f"gemini result status {status!r}")
        outcome.run_status, outcome.finish_reason, outcome.failure_kind = _error_verdict(
            error, exit_code
        )
        if error.get("type"):
            outcome.terminal_event = f"result/{error['type']}"

    def _finish_document(
        self, outcome: AgentOutcome, doc: dict[str, Any], exit_code: int | None
    ) -> None:
        outcome.session_id = as_str(doc.get("session_id"))
        stats = as_dict(doc.get("stats"))
        if stats:
            outcome.usage, model = _json_usage(stats)
            outcome.model = outcome.model or model
        error = as_dict(doc.get("error"))
        if error:
            outcome.terminal_event = f"error/{error.get('type') or 'unknown'}"
            add_error(outcome.errors, error.get("message") or "gemini reported an error")
            outcome.run_status, outcome.finish_reason, outcome.failure_kind = _error_verdict(
                error, exit_code
            )
            return
        response = doc.get("response")
        outcome.terminal_event = "response"
        if not isinstance(response, str):
            add_error(outcome.errors, "gemini output has no response text")
            return  # run_status stays unknown
        outcome.final_text = response
        outcome.run_status = RunStatus.COMPLETED
        finish = normalise_finish_reason(doc.get("finish_reason") or doc.get("finishReason"))
        outcome.finish_reason = finish or FinishReason.STOP
        if outcome.finish_reason is FinishReason.REFUSAL:
            outcome.failure_kind = FailureKind.REFUSAL


def _stderr_error(stderr_tail: str) -> dict[str, Any] | None:
    """The fatal ``{"error": {...}}`` object Gemini's json mode prints on stderr, if any."""
    if "error" not in stderr_tail:
        return None
    found: dict[str, Any] | None = None
    for value in json_docs(stderr_tail):
        if isinstance(value, dict) and isinstance(value.get("error"), dict):
            found = value
    return found


@with_config(extra="forbid")
class GeminiOptions(TypedDict, total=False):
    """``agent_options`` for ``agent="gemini"``."""

    output_format: Literal["json", "stream-json"]  # default json
    approval_mode: str  # e.g. "yolo", "auto_edit"
    yolo: bool


class GeminiFormat(AgentFormat):
    """``gemini -p PROMPT --output-format json`` (or stream-json).

    Options: GeminiOptions.
    """

    name: ClassVar[str] = "gemini"
    options_type: ClassVar[type[Mapping[str, Any]]] = GeminiOptions
    supports_resume: ClassVar[bool] = True
    default_command: ClassVar[tuple[str, ...]] = ("gemini",)
    edits_files: ClassVar[bool] = True
    default_options: ClassVar[Mapping[str, Any]] = MappingProxyType({"approval_mode": "yolo"})

    def invocation(self, request: AgentRequest, base_command: list[str] | None) -> Invocation:
        argv = list(base_command or self.default_command)
        options = cast(GeminiOptions, request.options)
        output_format = options.get("output_format", "json")
        # "--prompt=VALUE" keeps a prompt that starts with "-" from being read as a flag.
        argv.append(f"--prompt={request.prompt}" if request.prompt.startswith("-") else "-p")
        if not request.prompt.startswith("-"):
            argv.append(request.prompt)
        argv += ["--output-format", output_format]
        if request.resume_session_id:
            argv += ["--resume", request.resume_session_id]
        if request.model:
            argv += ["--model", request.model]
        if options.get("approval_mode"):
            argv += ["--approval-mode", options["approval_mode"]]
        elif options.get("yolo"):
            argv.append("--yolo")
        argv += list(request.extra_args)
        return Invocation(argv=argv)

    def parser(self) -> EventParser:
        return GeminiParser()
