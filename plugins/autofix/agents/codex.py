"""OpenAI Codex CLI: ``codex exec --json`` event lines (shared/agent-formats/README.md §4).

- ``turn.completed`` → completed (usage summed over turns); ``turn.failed`` → failed, with
  ``error.message`` classified (401 → auth, 429/rate limit → rate_limit, usage limit → ...).
- ``error`` events before the terminal one are retry chatter; the last one is kept as a hint.
- Final text: the last ``agent_message``. When it is a JSON object or array (``--output-schema``)
  it is also the structured output.
- Session id: ``thread.started.thread_id``. No cost is reported.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any, ClassVar, cast

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
from autofix.agents.events import JsonEventParser, add_error, as_dict, as_int, as_str
from autofix.agents.failures import classify_error_text, no_terminal_failure, status_for_kind
from autofix.result import FailureKind, FinishReason, RunStatus, TokenUsage, normalise_finish_reason


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


def _finish_from_message(message: str) -> FinishReason | None:
    lowered = message.lower()
    if "max_output_tokens" in lowered or "max_tokens" in lowered:
        return FinishReason.LENGTH
    if "content_filter" in lowered or "refusal" in lowered:
        return FinishReason.REFUSAL
    return None


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

    def _finish(self, exit_code: int | None, stderr_tail: str) -> AgentOutcome:
        for value in self._reader.finish():
            if isinstance(value, dict):
                self._handle(value)
        outcome = AgentOutcome(
            session_id=self._session_id,
            events=self._events,
            non_json_lines=self._reader.non_json_lines,
            final_text=self._final_text,
            usage=self._usage,
            num_turns=self._turns or None,
            terminal_event=self._terminal,
        )
        if self._terminal == "turn.completed":
            outcome.run_status = RunStatus.COMPLETED
            outcome.structured_output = _parse_json_text(self._final_text)
            finish = self._finish_hint or FinishReason.STOP
            if self._refusal_text is not None:
                finish = FinishReason.REFUSAL
                add_error(outcome.errors, self._refusal_text)
            outcome.finish_reason = finish
            if finish is FinishReason.REFUSAL:
                outcome.failure_kind = FailureKind.REFUSAL
            return outcome
        if self._terminal == "turn.failed":
            message = self._failure_message or "turn failed"
            add_error(outcome.errors, message)
            failed_finish: FinishReason | None = self._finish_hint or _finish_from_message(message)
            kind: FailureKind | None
            if failed_finish is FinishReason.REFUSAL:
                kind = FailureKind.REFUSAL
            elif failed_finish is FinishReason.LENGTH:
                kind = None
            else:
                kind = classify_error_text(message) or FailureKind.API_ERROR
                failed_finish = FinishReason.ERROR
            outcome.run_status = status_for_kind(kind)
            outcome.finish_reason = failed_finish
            outcome.failure_kind = kind
            return outcome
        tail = list(self._reader.non_json_tail)
        if self._last_error:
            tail.append(self._last_error)
        kind, message = no_terminal_failure(self.agent_name, exit_code, stderr_tail, tail)
        if kind is None and self._last_error:
            kind = classify_error_text(self._last_error)
        outcome.failure_kind = kind
        add_error(outcome.errors, message)
        if self._last_error:
            add_error(outcome.errors, self._last_error)
        return outcome


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
    """``agent_options`` for ``agent="codex"``."""

    sandbox: str  # e.g. "workspace-write"
    full_auto: bool


class CodexFormat(AgentFormat):
    """``codex exec --json --skip-git-repo-check [...] PROMPT`` with an empty stdin.

    Options: CodexOptions.
    """

    name: ClassVar[str] = "codex"
    options_type: ClassVar[type[Mapping[str, Any]]] = CodexOptions
    supports_resume: ClassVar[bool] = True
    default_command: ClassVar[tuple[str, ...]] = ("codex",)
    edits_files: ClassVar[bool] = True
    default_options: ClassVar[Mapping[str, Any]] = MappingProxyType(
        {"sandbox": "workspace-write", "full_auto": True}
    )

    def invocation(self, request: AgentRequest, base_command: list[str] | None) -> Invocation:
        argv = [*(base_command or self.default_command), "exec", "--json", "--skip-git-repo-check"]
        options = cast(CodexOptions, request.options)
        if request.model:
            argv += ["--model", request.model]
        if options.get("sandbox"):
            argv += ["--sandbox", options["sandbox"]]
        if options.get("full_auto"):
            argv.append("--full-auto")
        if request.output_schema is not None:
            argv += ["--output-schema", str(schema_file(request.output_schema))]
        argv += list(request.extra_args)
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
