"""OpenAI Codex CLI: ``codex exec --json`` event lines (docs/agents/codex.md).

- ``turn.completed`` → completed (usage summed over turns); with no ``agent_message`` text it is
  an empty answer (a refusal content part is dropped by Codex and looks the same).
- ``turn.failed`` carries only ``error.message``: the ``Display`` text of one ``CodexErr``
  variant (codex-rs/protocol/src/error.rs), recognised by its fixed wording (``_VARIANTS``); an
  ``unexpected status NNN`` / ``last status: NNN`` inside gives the HTTP status; the rest of the
  wording only breaks ties.
- ``error`` events before the terminal one are retry chatter (``Reconnecting... N/M (...)``,
  watched by :class:`CodexWatcher`); the last one is kept as a hint.
- Final text: the last ``agent_message``. When it is a JSON object or array (``--output-schema``)
  it is also the structured output.
- Retry delay: "try again in 1.2s" and the usage limit's local "Try again at 1:40 PM".
- Session id: ``thread.started.thread_id``. No cost is reported.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import tempfile
from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any, ClassVar, Literal, cast

from pydantic import with_config
from typing_extensions import TypedDict

from autofix import safejson
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
    as_int,
    as_str,
    text_outcome,
)
from autofix.agents.failures import (
    MAX_TEXT_CHARS,
    kind_from_exit_code,
    kind_from_message,
    refine,
    retry_after_from_text,
    status_for_kind,
    status_from_text,
)
from autofix.agents.fatal import FatalForm, FatalForms, NoticeForm, NoticeForms
from autofix.agents.limit_flags import CODEX_LIMITS, FULL_AUTO_SANDBOX, codex_mcp_overrides
from autofix.agents.limits import LimitSupport
from autofix.agents.watch import RetryNotice, RetryWatcher, WatchSettings, notice_for_status
from autofix.finish import normalise_finish_reason
from autofix.notices import AgentNotice, NoticeCode, add_notice
from autofix.result import FailureKind, FinishReason, RunStatus, TokenUsage

K = FailureKind
# CodexErr Display texts (0.169.0, codex-rs/protocol/src/error.rs) → kind. Matched at the start
# of the message, or after "stream disconnected before completion: " (the Stream variant).
_VARIANTS: tuple[tuple[str, FailureKind], ...] = (
    ("missing environment variable:", K.AUTH),  # EnvVar: the provider's env_key (the API key)
    ("codex ran out of room in the model's context window", K.CONTEXT_WINDOW),
    ("selected model is at capacity", K.OVERLOADED),  # ServerOverloaded
    ("quota exceeded. check your plan and billing details", K.QUOTA_EXHAUSTED),  # QuotaExceeded
    ("your workspace is out of credits", K.QUOTA_EXHAUSTED),  # UsageLimitReached, workspace
    ("you hit your spend cap", K.QUOTA_EXHAUSTED),
    ("you've hit your usage limit", K.USAGE_LIMIT),  # UsageLimitReached
    ("to use codex with your chatgpt plan", K.PERMISSION),  # UsageNotIncluded
    ("access blocked by cloudflare", K.PERMISSION),
    ("we're currently experiencing high demand", K.SERVER_ERROR),  # InternalServerError (500)
    ("turn aborted", K.CANCELLED),
    ("interrupted (ctrl-c)", K.CANCELLED),
    ("request timed out", K.TIMEOUT),
    ("connection failed:", K.CONNECTION),  # ConnectionFailed
    ("error while reading the server response:", K.CONNECTION),  # ResponseStreamFailed
    ("sandbox error:", K.CONFIG),
    ("codex-linux-sandbox was required", K.CONFIG),
)
_STREAM_PREFIX = "stream disconnected before completion:"
CLAP_USAGE_EXIT = 2  # codex's argument parser exits 2 on a usage error
# The sandbox (read-only by default for codex exec) fails a write with EROFS.
_SANDBOX_DENIAL = "Read-only file system"
# "Incomplete response returned, reason: X" (response.incomplete): why the model stopped.
_INCOMPLETE = re.compile(r"\bincomplete response returned, reason: (\w+)", re.IGNORECASE)
_UNTRUSTED = "not inside a trusted directory"  # codex exec refuses to start (stderr)
_RECONNECTING = re.compile(r"^Reconnecting\.\.\. (?:(\d+)/(\d+) )?\((.*)\)\s*$", re.DOTALL)
_WAITING = re.compile(r"^Reconnecting\.\.\. waiting for network\b", re.IGNORECASE)


def _parse_json_text(text: str | None) -> Any:
    if not text:
        return None
    stripped = text.strip()
    if not stripped or stripped[0] not in "{[":
        return None
    try:
        return safejson.loads(stripped)
    except ValueError:
        return None


def _finish_hint(*sources: dict[str, Any]) -> FinishReason | None:
    """OpenAI-style finish reasons wherever a build puts them (event, item, error)."""
    for source in sources:
        for key in ("finish_reason", "stop_reason", "incomplete_reason"):
            found = normalise_finish_reason(source.get(key))
            if found is not None and found is not FinishReason.STOP:
                return found
    return None


# OpenAI's error object (``{"error": {"type", "code", ...}}``), which Codex passes on as the
# message of an error it does not map: https://platform.openai.com/docs/guides/error-codes
_OPENAI_CODES: dict[str, FailureKind] = {
    "context_length_exceeded": K.CONTEXT_WINDOW,
    "insufficient_quota": K.QUOTA_EXHAUSTED,
    "billing_hard_limit_reached": K.QUOTA_EXHAUSTED,
    "rate_limit_exceeded": K.RATE_LIMIT,
    "model_not_found": K.INVALID_REQUEST,
    "invalid_api_key": K.AUTH,
    "server_is_overloaded": K.OVERLOADED,
}
_OPENAI_TYPES: dict[str, FailureKind] = {
    "invalid_request_error": K.INVALID_REQUEST,
    "authentication_error": K.AUTH,
    "permission_error": K.PERMISSION,
    "not_found_error": K.INVALID_REQUEST,
    "rate_limit_error": K.RATE_LIMIT,
    "insufficient_quota": K.QUOTA_EXHAUSTED,
    "server_error": K.SERVER_ERROR,
    "api_error": K.SERVER_ERROR,
}


def openai_error_kind(message: str) -> FailureKind | None:
    """The kind an OpenAI error object quoted as a message names (its code, then its type)."""
    start = message.find("{")
    if start < 0 or start > 200:
        return None
    found = _parse_json_text(message[start:])
    error = as_dict(as_dict(found).get("error")) or as_dict(found)
    code = _OPENAI_CODES.get(str(error.get("code") or ""))
    if code is not None:
        return code
    by_type = _OPENAI_TYPES.get(str(error.get("type") or ""))
    return refine(by_type, str(error.get("message") or "")) if by_type is not None else None


def codex_error_kind(message: str) -> tuple[FailureKind, FinishReason]:
    """A ``turn.failed`` / ``error`` message → kind and finish reason (module docstring)."""
    text = " ".join(message[:MAX_TEXT_CHARS].split()).replace("\u2019", "'")
    lowered = text.lower()
    incomplete = _INCOMPLETE.search(text)
    if incomplete is not None:
        finish = normalise_finish_reason(incomplete.group(1))
        if finish is FinishReason.LENGTH:
            return K.MAX_TOKENS, finish
        if finish is FinishReason.REFUSAL:
            return K.REFUSAL, finish
    by_body = openai_error_kind(text)
    if by_body is not None:
        return by_body, FinishReason.ERROR
    body = lowered
    if body.startswith(_STREAM_PREFIX):
        body = body[len(_STREAM_PREFIX) :].strip()
    for prefix, kind in _VARIANTS:
        if body.startswith(prefix):
            return kind, FinishReason.ERROR
    by_message = kind_from_message(body)  # the cause, not "stream disconnected" around it
    if by_message is K.TIMEOUT and lowered.startswith(_STREAM_PREFIX):
        by_message = K.CONNECTION  # the stream went quiet: codex's own idle timeout, no 408
    if by_message is not None:
        return by_message, FinishReason.ERROR
    if lowered.startswith(_STREAM_PREFIX):
        return K.CONNECTION, FinishReason.ERROR  # the stream broke for a reason it did not say
    return K.API_ERROR, FinishReason.ERROR


def _error_line_kind(line: str) -> FailureKind | None:
    """``ERROR: <CodexErr>`` (text mode) → the variant's kind."""
    message = line.split(":", 1)[1] if ":" in line else line
    kind, _ = codex_error_kind(message.strip())
    return None if kind is K.API_ERROR else kind


def _main_error_kind(line: str) -> FailureKind:
    """``Error: <anyhow chain>``: what ``codex exec``'s main returns when it could not run the
    task at all (its turns fail through ``turn.failed`` or ``ERROR:``): the setup, unless the
    chain names an API failure."""
    return _error_line_kind(line) or K.CONFIG


_EXEC = "codex-rs/exec/src/lib.rs"
# The lines codex exec prints on stderr when it stops (0.171.0; docs/agents/codex.md has the
# table). Command transcripts of its text mode go to stderr too, so only wording no tool prints
# is evidence; "ERROR: msg" and "Error: msg" say which failure a failed run was.
FATAL_FORMS = FatalForms(
    [
        FatalForm(r"error: unexpected argument '", K.CONFIG, "exec/src/cli.rs (clap), exit 2"),
        FatalForm(r"error: invalid value '[^'\n]{0,200}' for '-", K.CONFIG, "clap, exit 2"),
        FatalForm(r"error: a value is required for '-", K.CONFIG, "clap, exit 2"),
        FatalForm(r"Error parsing -c overrides:", K.CONFIG, _EXEC),
        FatalForm(r"Error finding codex home:", K.CONFIG, _EXEC),
        FatalForm(r"Error loading config\.toml", K.CONFIG, _EXEC),
        FatalForm(r"Error loading rules:", K.CONFIG, _EXEC),
        FatalForm(r"Not inside a trusted directory and --skip-git-repo-check", K.CONFIG, _EXEC),
        FatalForm(r"Failed to read output schema file", K.CONFIG, _EXEC),
        FatalForm(r"Output schema file [^\n]{0,400}? is not valid JSON", K.CONFIG, _EXEC),
        FatalForm(r"No prompt provided via stdin", K.CONFIG, _EXEC),
        # A session that cannot be resumed or started: a missing rollout, a required MCP server.
        FatalForm(r"Error: thread/resume: ", K.CONFIG, "exec/src/lib.rs (thread/resume)"),
        FatalForm(
            r"Error: thread/start: [^\n]{0,400}?required MCP servers failed",
            K.CONFIG,
            "core/src/codex.rs (required MCP servers)",
        ),
        FatalForm(r"Error: approval_policy = ", K.CONFIG, "core/src/config (no longer supported)"),
        FatalForm(r"Error: thread/start: ", None, _EXEC, read=_main_error_kind),
        FatalForm(r"Error: ", None, _EXEC, evidence=False, read=_main_error_kind),
        FatalForm(
            r"ERROR: (?!Reconnecting\.\.\.)",
            None,
            "exec/src/event_processor_with_human_output.rs",
            evidence=False,
            read=_error_line_kind,
        ),
    ]
)
_ERROR_LOG = r"\d{4}-\d\d-\d\dT[\d:.]{8,20}Z +ERROR "  # codex's tracing log line, level ERROR
_TRACE = _ERROR_LOG + "codex_core::tools::router: error="
NOTICE_FORMS = NoticeForms(
    [
        # exec forces approval "never": a command or patch asking for more is refused, not run
        # ("approval policy is Never; reject", "Rejected(...)", "patch rejected: ...").
        NoticeForm(_TRACE + r"[^\n]{0,300}?\b(?i:reject(?:ed)?)\b", NoticeCode.DENIED_TOOL),
        NoticeForm(r"context compacted$", NoticeCode.COMPACTED, "text mode's transcript"),
        # The MCP client's own error log: a server it could not reach (optional ones too).
        NoticeForm(
            _ERROR_LOG + "rmcp::",
            NoticeCode.MCP_SERVER_FAILED,
            "rmcp (codex's MCP client)",
        ),
        # A command the read-only sandbox refused, in the text mode's transcript.
        NoticeForm(rf"[^\n]{{0,300}}?\b{_SANDBOX_DENIAL}\b", NoticeCode.DENIED_TOOL, "sandbox"),
        NoticeForm(
            _ERROR_LOG + "codex_core::compact: ",
            NoticeCode.COMPACTED,
            "core/src/compact.rs",
        ),
    ]
)


class CodexParser(JsonEventParser):
    """``codex exec --json`` lines → AgentOutcome."""

    agent_name = "codex"

    def __init__(self) -> None:
        super().__init__()
        self._session_id: str | None = None
        self._final_text: str | None = None
        self._terminal: str | None = None
        self._failure_message: str | None = None
        self._last_error: str | None = None
        self._usage = TokenUsage()
        self._turns = 0
        self._finish_hint: FinishReason | None = None
        self._refusal_text: str | None = None
        self._notices: list[AgentNotice] = []

    def is_event(self, document: dict[str, Any]) -> bool:
        return isinstance(document.get("type"), str)  # every `codex exec --json` event is typed

    def _handle(self, event: dict[str, Any]) -> None:
        self._events += 1
        kind = event.get("type")
        item = as_dict(event.get("item"))
        if kind == "thread.started":
            self._session_id = as_str(event.get("thread_id")) or self._session_id
        elif kind == "item.completed" and item.get("type") == "agent_message":
            text = item.get("text")
            if isinstance(text, str):
                self._final_text = text
            refusal = as_str(item.get("refusal"))
            if refusal:
                self._refusal_text = refusal
        elif kind == "item.completed" and item.get("type") == "command_execution":
            output = item.get("aggregated_output")
            if item.get("status") == "failed" and isinstance(output, str):
                self._sandbox_denial(item, output)
        elif kind == "error":
            self._last_error = as_str(event.get("message")) or self._last_error
        elif kind == "turn.completed":
            self._terminal = "turn.completed"
            self._turns += 1
            usage = as_dict(event.get("usage"))
            self._usage = TokenUsage(
                input_tokens=self._usage.input_tokens + as_int(usage.get("input_tokens")),
                cached_input_tokens=self._usage.cached_input_tokens
                + as_int(usage.get("cached_input_tokens")),
                output_tokens=self._usage.output_tokens + as_int(usage.get("output_tokens")),
                thinking_tokens=self._usage.thinking_tokens
                + as_int(usage.get("reasoning_output_tokens")),
            )
        elif kind == "turn.failed":
            self._terminal = "turn.failed"
            self._turns += 1
            error = as_dict(event.get("error"))
            self._failure_message = (
                as_str(error.get("message")) or self._last_error or "turn failed"
            )
        hint = _finish_hint(event, item, as_dict(event.get("error")))
        if hint is not None:
            self._finish_hint = hint

    def _sandbox_denial(self, item: dict[str, Any], output: str) -> None:
        """A command the sandbox refused: its read-only mounts fail writes with EROFS."""
        if _SANDBOX_DENIAL not in output[:MAX_TEXT_CHARS]:
            return
        command = as_str(item.get("command")) or "a command"
        add_notice(
            self._notices, AgentNotice(code=NoticeCode.DENIED_TOOL, detail=f"sandbox: {command}")
        )

    def _finish(self, exit_code: int | None, stderr_tail: str) -> AgentOutcome:
        for value in self._reader.finish():
            if isinstance(value, dict):
                self._handle(value)
        outcome = AgentOutcome(
            notices=list(self._notices),
            session_id=self._session_id,
            events=self._events,
            non_json_lines=self._reader.non_json_lines,
            final_text=self._final_text,
            usage=self._usage,
            num_turns=self._turns or None,
            terminal_event=self._terminal,
        )
        if self._terminal == "turn.completed":
            self._completed(outcome)
        elif self._terminal == "turn.failed":
            message = self._failure_message or "turn failed"
            add_error(outcome.errors, message)
            kind, finish = codex_error_kind(message)
            if self._finish_hint is FinishReason.LENGTH:
                kind, finish = K.MAX_TOKENS, FinishReason.LENGTH
            elif self._finish_hint is FinishReason.REFUSAL:
                kind, finish = K.REFUSAL, FinishReason.REFUSAL
            outcome.run_status = status_for_kind(kind)
            outcome.finish_reason = finish
            outcome.failure_kind = kind
            outcome.retry_after_s = retry_after_from_text(message)
        elif self.text_mode:
            return text_outcome(
                self.agent_name,
                self.text_answer,
                exit_code,
                stderr_tail,
                # Exit 2 before any event is clap's usage error: the flags were wrong.
                (lambda _: K.CONFIG) if exit_code == CLAP_USAGE_EXIT else _text_mode_kind,
            )
        else:
            self._no_terminal(outcome, exit_code, stderr_tail)
        return outcome

    def _completed(self, outcome: AgentOutcome) -> None:
        outcome.run_status = RunStatus.COMPLETED
        outcome.structured_output = _parse_json_text(self._final_text)
        finish = self._finish_hint or FinishReason.STOP
        if self._refusal_text is not None:
            finish = FinishReason.REFUSAL
            add_error(outcome.errors, self._refusal_text)
        outcome.finish_reason = finish
        if finish is FinishReason.REFUSAL:
            outcome.failure_kind = K.REFUSAL
        elif finish is FinishReason.LENGTH:
            outcome.failure_kind = K.MAX_TOKENS
        elif not (self._final_text or "").strip():
            # No agent_message (or only blanks): nothing was answered. A refusal content part
            # is dropped by Codex and ends here too (docs/agents/codex.md).
            outcome.failure_kind = K.EMPTY_ANSWER
            add_error(outcome.errors, "codex completed the turn without an agent message")

    def _no_terminal(self, outcome: AgentOutcome, exit_code: int | None, stderr_tail: str) -> None:
        ended = "no exit code" if exit_code is None else f"exit {exit_code}"
        add_error(outcome.errors, f"codex: no terminal event in the output ({ended})")
        kind = kind_from_exit_code(exit_code)
        if kind is None and _UNTRUSTED in stderr_tail.lower():
            kind = K.CONFIG
            add_error(outcome.errors, "codex refused to start: not inside a trusted directory")
        if kind is None and self._last_error:
            # The last retry notice says what kept failing ("waiting for network", a status).
            kind, _ = codex_error_kind(_notice_cause(self._last_error))
            if kind is K.API_ERROR:
                kind = None
        if self._last_error:
            add_error(outcome.errors, self._last_error)
        outcome.failure_kind = kind


def _text_mode_kind(wording: str) -> FailureKind | None:
    """Text mode's failure: the last ``ERROR: <CodexErr>`` line says which variant it was."""
    for line in reversed(wording.splitlines()):
        if line.startswith("ERROR: ") and not line.startswith("ERROR: Reconnecting"):
            return _error_line_kind(line)
    return kind_from_message(wording)


def _notice_cause(message: str) -> str:
    """``Reconnecting... 2/5 (cause)`` → cause; "waiting for network" → a connection failure."""
    if _WAITING.match(message):
        return "connection failed: waiting for network"
    match = _RECONNECTING.match(message)
    return match.group(3) if match is not None else message


class CodexWatcher(RetryWatcher):
    """Top-level ``error`` events ``Reconnecting... N/M (cause)`` and
    ``Reconnecting... waiting for network (...)`` (which never ends by itself)."""

    def notice_from_event(self, event: dict[str, Any]) -> RetryNotice | None:
        if event.get("type") != "error":
            return None
        message = (as_str(event.get("message")) or "")[:MAX_TEXT_CHARS]
        if _WAITING.match(message):
            return RetryNotice("network", K.CONNECTION, True, message[:300])
        match = _RECONNECTING.match(message)
        if match is None:
            return None
        cause = match.group(3)
        kind, _ = codex_error_kind(cause)
        return notice_for_status(
            status_from_text(cause), message, kind, retry_after_from_text(cause)
        )


def schema_file(schema: dict[str, Any]) -> Path:
    """Write ``schema`` to a temp file named by its content hash (reused, so nothing piles up)."""
    text = json.dumps(schema, sort_keys=True, separators=(",", ":"))
    digest = hashlib.sha256(text.encode()).hexdigest()[:16]
    path = Path(tempfile.gettempdir()) / f"autofix-codex-schema-{digest}.json"
    if not path.exists():
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".autofix-codex-schema-")
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.replace(tmp, path)  # atomic: concurrent tasks never read a half-written schema
    return path


@with_config(extra="forbid")
class CodexOptions(TypedDict, total=False):
    """``agent_options`` for ``agent="codex"``.

    ``sandbox`` is the typed ``permission_mode`` (AgentLimits), kept for older DAGs, and
    ``full_auto`` asks for the sandbox older releases' ``--full-auto`` chose (workspace-write):
    the pinned codex has no such flag. Giving one of them beside ``permission_mode`` is an error."""

    sandbox: str  # e.g. "workspace-write"
    full_auto: bool
    # "text": codex exec without --json (the answer on stdout, its transcript on stderr)
    output_format: Literal["json", "text"]  # default json
    # `-c key=value` config overrides, the value in TOML (e.g. a custom model provider from an
    # autofix_codex Connection: autofix.connections.codex).
    config_overrides: dict[str, str]


class CodexFormat(AgentFormat):
    """``codex exec --json --skip-git-repo-check [...] PROMPT`` with an empty stdin.

    Options: CodexOptions; limits: permission_mode (``--sandbox``), mcp_servers, extra_args
    (CODEX_LIMITS).
    """

    name: ClassVar[str] = "codex"
    structured_result: ClassVar[bool] = True
    options_type: ClassVar[type[Mapping[str, Any]]] = CodexOptions
    limit_support: ClassVar[LimitSupport] = CODEX_LIMITS
    legacy_limit_keys: ClassVar[Mapping[str, str]] = MappingProxyType(
        {"sandbox": "permission_mode", "full_auto": "permission_mode"}
    )
    supports_resume: ClassVar[bool] = True
    default_command: ClassVar[tuple[str, ...]] = ("codex",)
    edits_files: ClassVar[bool] = True
    default_options: ClassVar[Mapping[str, Any]] = MappingProxyType(
        {"sandbox": "workspace-write", "full_auto": True}
    )

    def legacy_limits(self, options: Mapping[str, Any]) -> dict[str, tuple[str, Any]]:
        if options.get("sandbox"):
            return {"permission_mode": ("sandbox", options["sandbox"])}
        if options.get("full_auto"):
            return {"permission_mode": ("full_auto", FULL_AUTO_SANDBOX)}
        return {}

    def invocation(self, request: AgentRequest, base_command: list[str] | None) -> Invocation:
        options = cast(CodexOptions, request.options)
        limits = request.limits
        text = options.get("output_format") == "text"
        argv = [*(base_command or self.default_command), "exec"]
        argv += ["--skip-git-repo-check"] if text else ["--json", "--skip-git-repo-check"]
        for key, value in (options.get("config_overrides") or {}).items():
            argv += ["-c", f"{key}={value}"]
        if request.model:
            argv += ["--model", request.model]
        if limits.permission_mode:
            argv += ["--sandbox", limits.permission_mode]
        argv += codex_mcp_overrides(limits.mcp_servers)
        if request.output_schema is not None:
            argv += ["--output-schema", str(schema_file(request.output_schema))]
        argv += list(limits.extra_args)
        if request.resume_session_id:
            argv += ["resume", request.resume_session_id]
        stdin: str | None = None
        if len(request.prompt) > MAX_PROMPT_ARG_CHARS:
            argv.append("-")  # "-": read the prompt from stdin
            stdin = request.prompt
        else:
            if request.prompt.startswith("-"):
                argv.append("--")
            argv.append(request.prompt)
        # stdin None = /dev/null: codex reads a piped stdin to EOF and would wait forever.
        return Invocation(argv=argv, stdin=stdin)

    def parser(self) -> EventParser:
        return CodexParser()

    def fatal_forms(self) -> FatalForms | None:
        return FATAL_FORMS

    def asks_for_text(self, options: Mapping[str, Any]) -> bool | None:
        return options.get("output_format") == "text"

    def notice_forms(self) -> NoticeForms | None:
        return NOTICE_FORMS

    def watcher(self, settings: WatchSettings) -> RetryWatcher | None:
        return CodexWatcher(settings)
