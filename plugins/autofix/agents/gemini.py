"""Gemini CLI: ``gemini -p PROMPT --output-format json`` (and ``stream-json``, ``text``),
docs/agents/gemini.md.

- ``json``: one pretty-printed object on stdout with ``response``, ``session_id``, ``stats``
  (and ``warnings``: a detected loop, a turn cap). Fatal errors print ``{"session_id",
  "error": {type, message, code}}`` on **stderr** and exit with the code, so
  :meth:`GeminiParser.finish` looks for that object in the stderr tail.
- ``stream-json``: ``init``, ``message`` deltas, ``tool_use``/``tool_result``, ``error``
  (the CLI's reports during the run: loops, turn caps, hooks, empty streams) and a ``result``
  line that decides. Final text: assistant deltas after the last tool result.
- ``text``: no event at all; the answer is stdout (events.text_outcome).

The kinds and the CLI's own stderr lines are in gemini_errors.py. Undetectable: MAX_TOKENS /
SAFETY after partial text end as ``result/success``, exit 0 (the CLI checks only empty
answers); validation with a schema is the only catch.

Usage: ``input_tokens`` = tokens sent (incl. cached), ``thinking_tokens`` = thoughts + tool
tokens, so ``TokenUsage.total`` equals Gemini's own total.
"""

from __future__ import annotations

import os
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
    as_list,
    as_str,
    json_docs,
    text_outcome,
)
from autofix.agents.failures import (
    http_status,
    no_terminal_failure,
    retry_after_from_text,
    status_for_kind,
)
from autofix.agents.fatal import FatalForms, NoticeForms
from autofix.agents.gemini_errors import (
    DENIED_TOOL_ERRORS,
    EXIT_CODE_KINDS,
    FATAL_FORMS,
    HOOK_STOP_ERROR,
    LOOP,
    NOTICE_FORMS,
    api_error_kind,
    content_error,
    error_verdict,
    google_error,
    reported_failure,
    retry_delay,
    text_mode_kind,
)
from autofix.agents.gemini_settings import run_home
from autofix.agents.limit_flags import GEMINI_LIMITS, gemini_limit_settings
from autofix.agents.limits import LimitSupport
from autofix.agents.watch import RetryNotice, RetryWatcher, WatchSettings, notice_for_status
from autofix.finish import normalise_finish_reason
from autofix.notices import AgentNotice, NoticeCode, add_notice
from autofix.result import FailureKind, FinishReason, RunStatus, TokenUsage

K = FailureKind
_STREAM_TYPES = frozenset({"init", "message", "tool_use", "tool_result", "error", "result"})


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
        self._reports: list[str] = []  # error events of any severity, in order
        self._hook_stop: str | None = None  # a hook stopped the agent at a tool call
        self._notices: list[AgentNotice] = []

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
            error = as_dict(value.get("error"))
            if value.get("status") == "error" and error.get("type") in DENIED_TOOL_ERRORS:
                detail = as_str(error.get("message")) or str(error.get("type"))
                add_notice(self._notices, AgentNotice(code=NoticeCode.DENIED_TOOL, detail=detail))
                if error.get("type") == HOOK_STOP_ERROR:
                    self._hook_stop = detail
        elif kind == "error":
            message = as_str(value.get("message"))
            if message:
                self._reports.append(message)
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
            elif self.text_mode:
                outcome = text_outcome(
                    self.agent_name,
                    self.text_answer,
                    exit_code,
                    stderr_tail,
                    lambda text: text_mode_kind(text, exit_code),
                )
            else:
                kind, message = no_terminal_failure(
                    self.agent_name, exit_code, stderr_tail, self._reader.non_json_tail
                )
                if exit_code in EXIT_CODE_KINDS:
                    kind = EXIT_CODE_KINDS[exit_code]
                outcome.failure_kind = kind
                outcome.errors = [message]
        outcome.notices = [*self._notices, *outcome.notices]
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
            self._completed(outcome, finish, self._reports)
            return
        error = as_dict(result.get("error"))
        outcome.errors = list(self._stream_errors)
        if not error:
            content = content_error(self._stream_errors)
            if content is not None:
                kind, outcome.finish_reason = content
                outcome.failure_kind = kind
                outcome.run_status = status_for_kind(kind)
                return
        message = str(error.get("message") or "")
        add_error(outcome.errors, message or f"gemini result status {status!r}")
        outcome.run_status, outcome.finish_reason, outcome.failure_kind = error_verdict(
            error, exit_code
        )
        outcome.retry_after_s = retry_delay(google_error(message), message)
        if error.get("type"):
            outcome.terminal_event = f"result/{error['type']}"

    def _completed(
        self, outcome: AgentOutcome, finish: FinishReason | None, reports: list[str]
    ) -> None:
        outcome.finish_reason = finish or FinishReason.STOP
        if any(report.startswith(LOOP) for report in reports):
            outcome.notices.append(AgentNotice(code=NoticeCode.LOOP_DETECTED, detail=LOOP))
        reported = reported_failure(reports, answered=bool((outcome.final_text or "").strip()))
        if reported is not None:
            outcome.failure_kind = reported
            for report in reports:
                add_error(outcome.errors, report)
            if reported is K.MAX_TURNS:
                outcome.finish_reason = FinishReason.MAX_TURNS
        elif outcome.finish_reason is FinishReason.REFUSAL:
            outcome.failure_kind = K.REFUSAL
        elif outcome.finish_reason is FinishReason.LENGTH:
            outcome.failure_kind = K.MAX_TOKENS
        elif not (outcome.final_text or "").strip() and self._hook_stop is not None:
            outcome.failure_kind = K.CONFIG  # the deployment's hook ended the run unanswered
            add_error(outcome.errors, self._hook_stop)
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
            outcome.run_status, outcome.finish_reason, outcome.failure_kind = error_verdict(
                error, exit_code
            )
            outcome.retry_after_s = retry_delay(google_error(message), message)
            return
        response = doc.get("response")
        outcome.terminal_event = "response"
        if not isinstance(response, str):
            add_error(outcome.errors, "gemini output has no response text")
            return  # run_status stays unknown
        outcome.final_text = response
        outcome.run_status = RunStatus.COMPLETED
        warnings = [item for item in as_list(doc.get("warnings")) if isinstance(item, str)]
        self._completed(
            outcome,
            normalise_finish_reason(doc.get("finish_reason") or doc.get("finishReason")),
            warnings,
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
    """``agent_options`` for ``agent="gemini"``.

    ``approval_mode`` (and ``yolo``, its "yolo") are the typed ``permission_mode``
    (AgentLimits), kept for older DAGs: giving one of them beside it is an error."""

    output_format: Literal["json", "stream-json", "text"]  # default json
    approval_mode: str  # e.g. "yolo", "auto_edit"
    yolo: bool


class GeminiFormat(AgentFormat):
    """``gemini -p PROMPT --output-format json`` (or stream-json).

    Options: GeminiOptions; limits: GEMINI_LIMITS (the turn cap, tools and MCP servers in a
    settings file of the run's own, gemini_settings.py).
    """

    name: ClassVar[str] = "gemini"
    structured_result: ClassVar[bool] = True
    options_type: ClassVar[type[Mapping[str, Any]]] = GeminiOptions
    limit_support: ClassVar[LimitSupport] = GEMINI_LIMITS
    legacy_limit_keys: ClassVar[Mapping[str, str]] = MappingProxyType(
        {"approval_mode": "permission_mode", "yolo": "permission_mode"}
    )
    supports_resume: ClassVar[bool] = True
    default_command: ClassVar[tuple[str, ...]] = ("gemini",)
    edits_files: ClassVar[bool] = True
    default_options: ClassVar[Mapping[str, Any]] = MappingProxyType({"approval_mode": "yolo"})

    def legacy_limits(self, options: Mapping[str, Any]) -> dict[str, tuple[str, Any]]:
        if options.get("approval_mode"):
            return {"permission_mode": ("approval_mode", options["approval_mode"])}
        if options.get("yolo"):
            return {"permission_mode": ("yolo", "yolo")}
        return {}

    def invocation(self, request: AgentRequest, base_command: list[str] | None) -> Invocation:
        argv = list(base_command or self.default_command)
        options = cast(GeminiOptions, request.options)
        limits = request.limits
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
        if limits.permission_mode:
            argv += ["--approval-mode", limits.permission_mode]
        argv += list(limits.extra_args)
        settings = gemini_limit_settings(limits)
        if not settings:
            return Invocation(argv=argv)
        env, cleanup = run_home(settings, {**os.environ, **request.task_env}, request.cwd)
        return Invocation(argv=argv, env=env, cleanup=cleanup)

    def parser(self) -> EventParser:
        return GeminiParser()

    def watcher(self, settings: WatchSettings) -> RetryWatcher | None:
        return GeminiWatcher(settings)

    def fatal_forms(self) -> FatalForms | None:
        return FATAL_FORMS

    def asks_for_text(self, options: Mapping[str, Any]) -> bool | None:
        return options.get("output_format") == "text"

    def notice_forms(self) -> NoticeForms | None:
        return NOTICE_FORMS
