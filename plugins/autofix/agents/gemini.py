"""Gemini CLI: ``gemini -p PROMPT --output-format json`` (and ``stream-json``), docs/agents/gemini.md.

- ``json``: one pretty-printed object on stdout with ``response``, ``session_id``, ``stats``.
  Fatal errors print ``{"session_id", "error": {type, message, code}}`` on **stderr** and exit
  with the code, so :meth:`GeminiParser.finish` looks for that object in the stderr tail.
- ``stream-json``: ``init``, ``message`` deltas, ``tool_use``/``tool_result``, ``error``
  (not terminal) and a ``result`` line that decides. Final text: assistant deltas after the
  last tool result.

Kinds, structured first: the ``Fatal*Error`` type and its exit code (41 auth, 42 input, 44
sandbox, 52 config, 53 turn limit, 54 tool, 55 untrusted folder, 130 cancelled); for API errors
the HTTP status (``error.code`` in json mode, else the exit code: Gemini exits with the status
mod 256, 429 → 173) and the Google error JSON inside the message (``status``, ``ErrorInfo``
reason, ``QuotaFailure``, ``RetryInfo``); the CLI's own fixed messages (the InvalidStream
constants for empty / truncated / blocked answers, its quota wording); the rest of the wording
only breaks ties. An ``[API Error: ...]`` with no HTTP status at all (exit 1) never got an
answer: a connection failure.

Undetectable: MAX_TOKENS / SAFETY after partial text end as ``result/success``, exit 0 (the
CLI checks only empty answers); validation with a schema is the only catch.

Usage: ``input_tokens`` = tokens sent (incl. cached), ``thinking_tokens`` = thoughts + tool
tokens, so ``TokenUsage.total`` equals Gemini's own total.
"""

from __future__ import annotations

import json
import re
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
from autofix.agents.failures import (
    SIGINT_EXIT,
    http_status,
    kind_from_message,
    no_terminal_failure,
    refine,
    retry_after_from_text,
    status_for_kind,
)
from autofix.agents.watch import RetryNotice, RetryWatcher, WatchSettings, notice_for_status
from autofix.result import FailureKind, FinishReason, RunStatus, TokenUsage, normalise_finish_reason

K = FailureKind
_STREAM_TYPES = frozenset({"init", "message", "tool_use", "tool_result", "error", "result"})

# FatalError subclasses and their exit codes (packages/core/src/utils/errors.ts).
EXIT_CODE_KINDS: dict[int, FailureKind] = {
    41: K.AUTH,
    42: K.INVALID_REQUEST,
    44: K.CONFIG,
    52: K.CONFIG,
    53: K.MAX_TURNS,
    55: K.CONFIG,
    SIGINT_EXIT: K.CANCELLED,
}
ERROR_TYPE_KINDS: dict[str, FailureKind] = {
    "FatalAuthenticationError": K.AUTH,
    "FatalInputError": K.INVALID_REQUEST,
    "FatalSandboxError": K.CONFIG,
    "FatalConfigError": K.CONFIG,
    "FatalTurnLimitedError": K.MAX_TURNS,
    "FatalUntrustedWorkspaceError": K.CONFIG,
    "FatalCancellationError": K.CANCELLED,
}
# The ``error`` event texts of the InvalidStream types (nonInteractiveCli, utils/constants.ts).
_CONTENT_ERRORS: tuple[tuple[str, FailureKind, FinishReason], ...] = (
    (
        "The model returned an empty response with no text or thoughts",
        K.EMPTY_ANSWER,
        FinishReason.STOP,
    ),
    (
        "The model returned reasoning thoughts but no final response text",
        K.EMPTY_ANSWER,
        FinishReason.STOP,
    ),
    (
        "Model response was truncated because it exceeded the token limit",
        K.MAX_TOKENS,
        FinishReason.LENGTH,
    ),
    ("The model response was blocked due to", K.REFUSAL, FinishReason.REFUSAL),
    # No finish reason: a prompt blocked before any candidate, or a stream that just stopped;
    # the output cannot tell which, so it is reported as what it shows: no answer.
    ("Model stream ended without a finish reason", K.EMPTY_ANSWER, FinishReason.STOP),
    ("Model stream ended with malformed function call", K.STRUCTURED_OUTPUT, FinishReason.ERROR),
    ("Model stream ended with unexpected tool call", K.STRUCTURED_OUTPUT, FinishReason.ERROR),
    ("Model stream ended with empty response text", K.EMPTY_ANSWER, FinishReason.STOP),
)
# google.rpc status names and ErrorInfo reasons.
_RPC_STATUS: dict[str, FailureKind] = {
    "UNAUTHENTICATED": K.AUTH,
    "PERMISSION_DENIED": K.PERMISSION,
    "RESOURCE_EXHAUSTED": K.RATE_LIMIT,
    "INVALID_ARGUMENT": K.INVALID_REQUEST,
    "FAILED_PRECONDITION": K.INVALID_REQUEST,
    "NOT_FOUND": K.INVALID_REQUEST,
    "UNAVAILABLE": K.SERVER_ERROR,
    "INTERNAL": K.SERVER_ERROR,
    "DEADLINE_EXCEEDED": K.SERVER_ERROR,
}
_REASONS: dict[str, FailureKind] = {
    "API_KEY_INVALID": K.AUTH,
    "API_KEY_EXPIRED": K.AUTH,
    "CONSUMER_SUSPENDED": K.PERMISSION,
    "SERVICE_DISABLED": K.PERMISSION,
    "API_KEY_SERVICE_BLOCKED": K.PERMISSION,
    "ACCESS_TOKEN_SCOPE_INSUFFICIENT": K.PERMISSION,
    "RATE_LIMIT_EXCEEDED": K.RATE_LIMIT,
    "MODEL_CAPACITY_EXHAUSTED": K.OVERLOADED,
    "MODEL_CAPACITY_EXCEEDED": K.OVERLOADED,
    "INSUFFICIENT_G1_CREDITS_BALANCE": K.QUOTA_EXHAUSTED,
}
# The CLI's own quota wording (utils/googleQuotaErrors.ts, classifyGoogleError).
_DAILY_QUOTA = "You have exhausted your daily quota"
_NO_QUOTA = re.compile(r"limit:\s*0(?!\d|\.\d)", re.IGNORECASE)
_CAPACITY = re.compile(r"exhausted your capacity|capacity exceeded|MODEL_CAPACITY_EXHAUSTED", re.I)
_API_ERROR = "[API Error:"
_FINISH_REASON = re.compile(r"\bfinish reason:? ([A-Z][A-Z_]+)\b")
_DURATION = re.compile(r"^(\d+(?:\.\d+)?)(ms|s)$")


def _code(value: object) -> int | None:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str) and value.isdigit():
        return int(value)
    return None


def status_from_exit(exit_code: int | None) -> int | None:
    """Gemini exits with an API error's HTTP status mod 256: 144..255 are 400..511."""
    if exit_code is not None and 144 <= exit_code <= 255:
        return exit_code + 256
    return None


def google_error(message: str) -> dict[str, Any]:
    """The ``{"error": {...}}`` JSON a message quotes (``[API Error: {...}]``), or {}."""
    start = message.find("{")
    if start < 0 or len(message) > 200_000:
        return {}
    try:
        value, _ = json.JSONDecoder().raw_decode(message[start:])
    except (ValueError, RecursionError):
        return {}
    error = as_dict(value).get("error") if isinstance(value, dict) else None
    return error if isinstance(error, dict) else {}


def _details(error: dict[str, Any], kind: str) -> list[dict[str, Any]]:
    details = error.get("details")
    return [
        item
        for item in (details if isinstance(details, list) else [])
        if isinstance(item, dict) and str(item.get("@type", "")).endswith(kind)
    ]


def _retry_delay(error: dict[str, Any], message: str) -> float | None:
    for info in _details(error, "RetryInfo"):
        match = _DURATION.match(str(info.get("retryDelay", "")))
        if match is not None:
            return float(match.group(1)) * (0.001 if match.group(2) == "ms" else 1.0)
    return retry_after_from_text(message)


def api_error_kind(message: str, status: int | None) -> FailureKind:
    """An API error's kind from its status, the Google error JSON and the CLI's fixed wording."""
    if _DAILY_QUOTA in message:
        return K.USAGE_LIMIT
    error = google_error(message)
    status = status or http_status(error.get("code"))
    for info in _details(error, "ErrorInfo"):
        reason = _REASONS.get(str(info.get("reason", "")))
        if reason is not None:
            return reason
    for failure in _details(error, "QuotaFailure"):
        violations = failure.get("violations")
        for violation in violations if isinstance(violations, list) else []:
            quota_id = str(as_dict(violation).get("quotaId", ""))
            if "PerDay" in quota_id or "Daily" in quota_id:
                return K.USAGE_LIMIT
    if status in (429, 499, 503) and _NO_QUOTA.search(message):
        return K.QUOTA_EXHAUSTED  # no quota at all: billing must be set up
    if _CAPACITY.search(message):
        return K.OVERLOADED
    if status is not None:
        return kind_from_message(message, status) or K.API_ERROR
    by_rpc = _RPC_STATUS.get(str(error.get("status", "")))
    if by_rpc is not None:
        return refine(by_rpc, message)
    worded = kind_from_message(message)
    if worded is None and message.lstrip().startswith(_API_ERROR):
        return K.CONNECTION  # an API error without any HTTP answer: it never reached the API
    return worded or K.API_ERROR


def _content_error(messages: list[str]) -> tuple[FailureKind, FinishReason] | None:
    for message in reversed(messages):
        for prefix, kind, finish in _CONTENT_ERRORS:
            if message.startswith(prefix):
                return kind, finish
        named = _FINISH_REASON.search(message)  # older builds: "... with finish reason SAFETY."
        reason = normalise_finish_reason(named.group(1)) if named is not None else None
        if reason is FinishReason.LENGTH:
            return K.MAX_TOKENS, reason
        if reason is FinishReason.REFUSAL:
            return K.REFUSAL, reason
    return None


def _error_verdict(
    error: dict[str, Any], exit_code: int | None
) -> tuple[RunStatus, FinishReason, FailureKind]:
    err_type = str(error.get("type") or "")
    message = str(error.get("message") or "")
    code = _code(error.get("code"))
    kind = ERROR_TYPE_KINDS.get(err_type)
    if kind is None:
        fatal = code if code is not None and code < 100 else exit_code
        kind = EXIT_CODE_KINDS.get(fatal) if fatal is not None else None
    if kind is None:
        content = _content_error([message])
        if content is not None:
            return status_for_kind(content[0]), content[1], content[0]
        status = http_status(code) or status_from_exit(exit_code)
        kind = api_error_kind(message, status)
    if kind is K.CANCELLED:
        return RunStatus.CANCELLED, FinishReason.ERROR, kind
    reason = FinishReason.MAX_TURNS if kind is K.MAX_TURNS else FinishReason.ERROR
    return status_for_kind(kind), reason, kind


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
                if exit_code in EXIT_CODE_KINDS:
                    kind = EXIT_CODE_KINDS[exit_code]
                outcome.failure_kind = kind
                outcome.errors = [message]
        outcome.session_id = outcome.session_id or self._session_id
        if outcome.run_status is not RunStatus.COMPLETED:
            # Gemini records the chat once a turn completes: a failed run's id names no saved
            # session, and ``--resume`` with it exits 42 ("No previous sessions found").
            outcome.session_id = None
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
            self._completed(outcome, finish)
            return
        error = as_dict(result.get("error"))
        outcome.errors = list(self._stream_errors)
        if not error:
            content = _content_error(self._stream_errors)
            if content is not None:
                kind, outcome.finish_reason = content
                outcome.failure_kind = kind
                outcome.run_status = status_for_kind(kind)
                return
        message = str(error.get("message") or "")
        add_error(outcome.errors, message or f"gemini result status {status!r}")
        outcome.run_status, outcome.finish_reason, outcome.failure_kind = _error_verdict(
            error, exit_code
        )
        outcome.retry_after_s = _retry_delay(google_error(message), message)
        if error.get("type"):
            outcome.terminal_event = f"result/{error['type']}"

    def _completed(self, outcome: AgentOutcome, finish: FinishReason | None) -> None:
        outcome.finish_reason = finish or FinishReason.STOP
        if outcome.finish_reason is FinishReason.REFUSAL:
            outcome.failure_kind = K.REFUSAL
        elif outcome.finish_reason is FinishReason.LENGTH:
            outcome.failure_kind = K.MAX_TOKENS
        elif not (outcome.final_text or "").strip():
            outcome.failure_kind = K.EMPTY_ANSWER
            add_error(outcome.errors, "gemini finished without any answer text")

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
            message = str(error.get("message") or "")
            outcome.terminal_event = f"error/{error.get('type') or 'unknown'}"
            add_error(outcome.errors, message or "gemini reported an error")
            outcome.run_status, outcome.finish_reason, outcome.failure_kind = _error_verdict(
                error, exit_code
            )
            outcome.retry_after_s = _retry_delay(google_error(message), message)
            return
        response = doc.get("response")
        outcome.terminal_event = "response"
        if not isinstance(response, str):
            add_error(outcome.errors, "gemini output has no response text")
            return  # run_status stays unknown
        outcome.final_text = response
        outcome.run_status = RunStatus.COMPLETED
        self._completed(
            outcome, normalise_finish_reason(doc.get("finish_reason") or doc.get("finishReason"))
        )


def _stderr_error(stderr_tail: str) -> dict[str, Any] | None:
    """The fatal ``{"error": {...}}`` object Gemini's json mode prints on stderr, if any."""
    if "error" not in stderr_tail:
        return None
    found: dict[str, Any] | None = None
    for value in json_docs(stderr_tail):
        if isinstance(value, dict) and isinstance(value.get("error"), dict):
            found = value
    return found


# The retry log line's first line (its message may span lines; "Retrying ..." or "Max attempts
# reached" comes after it).
_ATTEMPT = re.compile(
    r"^Attempt \d+ failed(?: with status (\d{3})| with (429|5xx) error)?(?:: (.*))?"
)


class GeminiWatcher(RetryWatcher):
    """stderr ``Attempt N failed with status S. Retrying with backoff...`` and
    ``Attempt N failed: <message>. Retrying after Dms...`` (quota errors): one per attempt."""

    def notice_from_stderr(self, line: str) -> RetryNotice | None:
        match = _ATTEMPT.match(line.strip()[:4000])
        if match is None:
            return None
        status_text, family, message = match.groups()
        status = http_status(status_text) or {"429": 429, "5xx": 500}.get(family or "")
        kind = api_error_kind(message, status) if message else None
        if status is None and kind is None:
            kind = K.CONNECTION  # retried without any HTTP answer: a network error
        delay = retry_after_from_text(message) if message else None
        return notice_for_status(status, line.strip(), kind, delay)


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

    def watcher(self, settings: WatchSettings) -> RetryWatcher | None:
        return GeminiWatcher(settings)
