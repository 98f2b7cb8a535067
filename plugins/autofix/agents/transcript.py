"""Readable transcripts of an agent's stdout, one renderer per output format.

A renderer is fed the raw stdout lines as they arrive and returns the lines a person reads:
the assistant's text, each tool call with its arguments, each tool result, errors and the run's
result. It only shows; the verdict is the format's parser's (``agents/<cli>.py``). Lines start
with a label (``assistant:``, ``tool:``, ``  ↳``, ``error:``, ``result:``); text that spans lines
continues indented. A line that is not an event is shown as it came.
"""

from __future__ import annotations

import json
from typing import Any, ClassVar

from autofix.agents.base import AgentFormat
from autofix.agents.events import JsonDocReader, as_dict, as_float, as_int, as_str

Lines = list[str]

ARG_CHARS = 300  # one tool call's arguments
RESULT_LINES = 12  # a tool result's first lines; the rest is counted
RESULT_CHARS = 2000
THINKING_LINES = 6
INDENT = "  "
# Tool arguments that say what a call does by themselves: shown alone when present.
_KEY_ARGS = ("command", "cmd", "file_path", "path", "absolute_path", "pattern", "url", "query")


def _oneline(value: object, limit: int = ARG_CHARS) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str)
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def tool_args(arguments: object) -> str:
    """A tool call's arguments on one line: the telling one alone, else ``key=value`` pairs."""
    if not isinstance(arguments, dict):
        return "" if arguments in (None, "", {}) else _oneline(arguments)
    for key in _KEY_ARGS:
        value = arguments.get(key)
        if isinstance(value, str | list) and value:
            rest = len(arguments) - 1
            shown = _oneline(value if isinstance(value, str) else " ".join(map(str, value)))
            return shown + (f" (+{rest} more argument{'s' * (rest > 1)})" if rest else "")
    return _oneline(", ".join(f"{k}={_oneline(v, 80)}" for k, v in arguments.items()))


def labelled(label: str, text: str, *, max_lines: int | None = None) -> Lines:
    """``label text``, continuation lines indented under it; ``max_lines`` cuts and counts."""
    rows = [row.rstrip() for row in text.strip("\n").splitlines()] or [""]
    hidden = 0
    if max_lines is not None and len(rows) > max_lines:
        hidden = len(rows) - max_lines
        rows = rows[:max_lines]
    pad = " " * (len(label) + 1)
    out = [f"{label} {rows[0]}".rstrip()] + [f"{pad}{row}".rstrip() for row in rows[1:]]
    if hidden:
        out.append(f"{pad}… {hidden} more line(s)")
    return out


def tool_result(text: str, *, error: bool = False) -> Lines:
    """A tool's output under its call: ``↳`` (or ``↳ error:``), the first lines only."""
    body = text if len(text) <= RESULT_CHARS else text[:RESULT_CHARS] + "…"
    label = f"{INDENT}↳ error:" if error else f"{INDENT}↳"
    return labelled(label, body or "(no output)", max_lines=RESULT_LINES)


def _content_text(content: object) -> str:
    """Text of a message content: a string, or a list of text parts."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = []
        for part in content:
            if isinstance(part, str):
                parts.append(part)
            elif isinstance(part, dict) and isinstance(part.get("text"), str):
                parts.append(part["text"])
        return "\n".join(parts)
    return "" if content is None else _oneline(content, RESULT_CHARS)


def tokens(usage: dict[str, Any]) -> str:
    """``tokens in N out M`` from the usual key spellings; empty when nothing is known."""
    got_in = as_int(usage.get("input_tokens") or usage.get("prompt_tokens") or usage.get("input"))
    got_in += as_int(usage.get("cache_read_input_tokens")) + as_int(
        usage.get("cache_creation_input_tokens")
    )
    got_out = as_int(
        usage.get("output_tokens") or usage.get("completion_tokens") or usage.get("candidates")
    )
    if not got_in and not got_out:
        return ""
    return f"tokens in {got_in} out {got_out}"


def facts(*parts: str | None) -> str:
    return " · ".join(part for part in parts if part)


def money(value: object) -> str | None:
    cost = as_float(value)
    return None if cost is None else f"${cost:.4f}"


class Transcript:
    """Output without events (``plain``, or a format this module does not know): shown as is."""

    def feed(self, line: str) -> Lines:
        return [line]

    def finish(self) -> Lines:
        return []


class EventTranscript(Transcript):
    """JSON events (lines, or pretty documents) → readable lines through ``event``."""

    accepts_arrays: ClassVar[bool] = False

    def __init__(self) -> None:
        self._reader = JsonDocReader()

    def feed(self, line: str) -> Lines:
        counted = self._reader.non_json_lines
        out: Lines = []
        for value in self._reader.feed(line):
            out += self._value(value)
        if self._reader.non_json_lines > counted and line.strip():
            out.append(line)  # not an event: a person reads it as it came
        return out

    def finish(self) -> Lines:
        out: Lines = []
        for value in self._reader.finish():
            out += self._value(value)
        return out + self.end()

    def _value(self, value: object) -> Lines:
        if isinstance(value, dict):
            return self.event(value)
        if isinstance(value, list) and self.accepts_arrays:
            return [line for item in value if isinstance(item, dict) for line in self.event(item)]
        return [_oneline(value, RESULT_CHARS)]

    def event(self, event: dict[str, Any]) -> Lines:
        raise NotImplementedError

    def end(self) -> Lines:
        """Lines held back until the stream ends (e.g. text still arriving in deltas)."""
        return []


def content_blocks(blocks: object) -> Lines:
    """Anthropic message content (Claude Code, the Agent SDK): text, tool calls, results.

    SDK dumps omit ``type``; the keys tell the kind."""
    out: Lines = []
    if isinstance(blocks, str):
        return labelled("assistant:", blocks) if blocks.strip() else []
    for block in blocks if isinstance(blocks, list) else []:
        if not isinstance(block, dict):
            continue
        kind = block.get("type") or _block_kind(block)
        if kind == "text" and isinstance(block.get("text"), str) and block["text"].strip():
            out += labelled("assistant:", block["text"])
        elif kind in ("tool_use", "server_tool_use"):
            out.append(f"tool: {block.get('name') or '?'} {tool_args(block.get('input'))}".rstrip())
        elif kind == "tool_result":
            out += tool_result(
                _content_text(block.get("content")), error=block.get("is_error") is True
            )
        elif kind == "thinking" and isinstance(block.get("thinking"), str):
            out += labelled("thinking:", block["thinking"], max_lines=THINKING_LINES)
    return out


def _block_kind(block: dict[str, Any]) -> str:
    if "tool_use_id" in block:
        return "tool_result"
    if "name" in block and "input" in block:
        return "tool_use"
    if "thinking" in block:
        return "thinking"
    return "text" if "text" in block else ""


def claude_result_line(result: dict[str, Any], said: str | None = None) -> Lines:
    """The run's end as a Claude result (or an SDK ResultMessage) tells it. ``said``: the last
    assistant text shown; the answer is shown here when none was (``--output-format json``),
    and an error message is not repeated when it was that text."""
    subtype = as_str(result.get("subtype")) or "?"
    is_error = result.get("is_error") is True
    turns = as_int(result.get("num_turns"))
    seconds = as_float(result.get("duration_ms"))
    spend = facts(
        f"{turns} turn(s)" if turns else None,
        f"{seconds / 1000:.1f} s" if seconds is not None else None,
        money(result.get("total_cost_usd", result.get("cost_usd"))),
        tokens(as_dict(result.get("usage"))),
    )
    text = as_str(result.get("result"))
    if subtype == "success" and not is_error:
        stop = as_str(result.get("stop_reason"))
        end = f"stopped: {stop}" if stop and stop not in ("end_turn", "stop_sequence") else None
        answer = labelled("assistant:", text) if text and said is None else []
        return [*answer, facts("result: success", end, spend)]
    status = result.get("api_error_status")
    head = "result: error" if subtype == "success" else f"result: {subtype}"
    lines = [facts(head + (f" (HTTP {status})" if status else ""), spend)]
    for message in ([text] if text else []) + [str(e) for e in result.get("errors") or [] if e]:
        if message.strip() != (said or "").strip():
            lines += labelled("error:", message, max_lines=RESULT_LINES)
    return lines


class ClaudeTranscript(EventTranscript):
    """Claude Code ``stream-json`` events, or the ``json`` result (object or message array)."""

    accepts_arrays = True

    def __init__(self) -> None:
        super().__init__()
        self._said: str | None = None  # the last assistant text shown

    def event(self, event: dict[str, Any]) -> Lines:
        kind = event.get("type")
        if kind == "system":
            subtype = as_str(event.get("subtype")) or "?"
            if subtype == "init":
                return [session_line(event.get("session_id"), event.get("model"), event.get("cwd"))]
            if subtype == "api_retry":
                return [api_retry_line(event)]
            return [f"system: {subtype}"]
        if kind in ("assistant", "user"):
            message = as_dict(event.get("message"))
            out = content_blocks(message.get("content"))
            if kind == "user":  # tool results only: the prompt is logged in its own group
                out = [line for line in out if line.startswith(INDENT)]
            for block in message.get("content") or [] if kind == "assistant" else []:
                if isinstance(block, dict) and isinstance(block.get("text"), str):
                    self._said = block["text"]
            error = as_str(event.get("error"))
            return out + ([f"error: {error}"] if error else [])
        if kind == "rate_limit_event":
            info = as_dict(event.get("rate_limit_info"))
            status = as_str(info.get("status")) or "?"
            if status == "allowed":
                return []
            window = as_str(info.get("rateLimitType"))
            return [f"rate limit: {status}" + (f" ({window})" if window else "")]
        if kind == "result":
            return claude_result_line(event, self._said)
        if kind == "stream_event":  # partial deltas (--include-partial-messages): the whole
            return []  # message follows as an assistant event
        return [f"event: {kind or '?'}"]


def api_retry_line(event: dict[str, Any]) -> str:
    """Claude Code retrying an API call by itself (``system/api_retry``)."""
    status, error = event.get("error_status"), as_str(event.get("error"))
    delay = as_float(event.get("retry_delay_ms"))
    attempt, most = as_int(event.get("attempt")), as_int(event.get("max_retries"))
    return facts(
        "retry: API error" + (f" {status}" if status else "") + (f" ({error})" if error else ""),
        f"retry {attempt} of {most}" if attempt and most else None,
        f"in {delay / 1000:.1f} s" if delay is not None else None,
    )


def session_line(session: object, model: object = None, cwd: object = None) -> str:
    return facts(
        f"session: {session}" if isinstance(session, str) and session else "session:",
        f"model {model}" if isinstance(model, str) and model else None,
        f"in {cwd}" if isinstance(cwd, str) and cwd else None,
    )


class CodexTranscript(EventTranscript):
    """``codex exec --json``: thread and turn events around items (messages, commands, edits)."""

    def __init__(self) -> None:
        super().__init__()
        self._started: set[str] = set()
        self._last_error = ""  # turn.failed repeats the last error event's message

    def event(self, event: dict[str, Any]) -> Lines:
        kind = as_str(event.get("type")) or "?"
        if kind == "thread.started":
            return [session_line(event.get("thread_id"))]
        if kind == "turn.started":
            return []
        if kind in ("item.started", "item.updated", "item.completed"):
            return self._item(kind, as_dict(event.get("item")))
        if kind == "turn.completed":
            return [facts("result: turn completed", tokens(as_dict(event.get("usage"))))]
        if kind == "turn.failed":
            message = as_str(as_dict(event.get("error")).get("message")) or ""
            repeated = message.strip() == self._last_error.strip()
            return ["result: turn failed"] + ([] if repeated else labelled("error:", message))
        if kind == "error":
            self._last_error = as_str(event.get("message")) or "?"
            return labelled("error:", self._last_error)
        return [f"event: {kind}"]

    def _item(self, kind: str, item: dict[str, Any]) -> Lines:
        item_type = as_str(item.get("type")) or "?"
        item_id = as_str(item.get("id")) or ""
        done = kind == "item.completed"
        if item_type == "agent_message":
            return labelled("assistant:", as_str(item.get("text")) or "(empty)") if done else []
        if item_type == "reasoning":
            text = as_str(item.get("text")) or ""
            return labelled("thinking:", text, max_lines=THINKING_LINES) if done and text else []
        if item_type == "todo_list":
            todo = [as_str(as_dict(t).get("text")) or "?" for t in item.get("items") or []]
            return labelled("plan:", "\n".join(todo)) if done else []
        if item_type == "error":
            return labelled("error:", as_str(item.get("message")) or "?")
        out: Lines = []
        if kind == "item.updated" or (item_id and item_id in self._started and not done):
            return out
        if not (item_id and item_id in self._started):
            out.append(self._call(item_type, item))
            if item_id:
                self._started.add(item_id)
        if done:
            out += self._outcome(item_type, item)
        return out

    @staticmethod
    def _call(item_type: str, item: dict[str, Any]) -> str:
        if item_type == "command_execution":
            return f"tool: shell {_oneline(item.get('command') or '')}"
        if item_type == "file_change":
            changes = [
                f"{as_str(as_dict(c).get('kind')) or 'change'} {as_str(as_dict(c).get('path')) or '?'}"
                for c in item.get("changes") or []
            ]
            return f"tool: edit {_oneline(', '.join(changes))}"
        if item_type == "mcp_tool_call":
            name = facts(as_str(item.get("server")), as_str(item.get("tool"))).replace(" · ", ".")
            return f"tool: {name} {tool_args(item.get('arguments'))}".rstrip()
        if item_type == "web_search":
            return f"tool: web_search {_oneline(item.get('query') or '')}"
        return f"tool: {item_type} {tool_args({k: v for k, v in item.items() if k not in ('id', 'type', 'status')})}"

    @staticmethod
    def _outcome(item_type: str, item: dict[str, Any]) -> Lines:
        failed = item.get("status") == "failed"
        if item_type == "command_execution":
            code = item.get("exit_code")
            output = as_str(item.get("aggregated_output")) or ""
            head = f"exit {code}" if code is not None else ""
            return tool_result("\n".join(part for part in (head, output) if part), error=failed)
        if item_type == "mcp_tool_call":
            error = as_dict(item.get("error"))
            if error or item.get("error"):
                return tool_result(
                    as_str(error.get("message")) or _oneline(item.get("error")), error=True
                )
            result = as_dict(item.get("result"))
            return tool_result(_content_text(result.get("content")))
        if item_type == "file_change":
            return [f"{INDENT}↳ {as_str(item.get('status')) or 'done'}"]
        return [f"{INDENT}↳ error: failed"] if failed else []


class GeminiTranscript(EventTranscript):
    """Gemini CLI ``stream-json`` events, or the one ``json`` document."""

    def __init__(self) -> None:
        super().__init__()
        self._text: list[str] = []  # assistant deltas not shown yet

    def event(self, event: dict[str, Any]) -> Lines:
        kind = event.get("type")
        if kind == "message" and event.get("role") == "assistant":
            content = event.get("content")
            if isinstance(content, str):
                if not event.get("delta"):
                    return self._said() + labelled("assistant:", content)
                self._text.append(content)
            return []
        out = self._said()
        if kind == "init":
            return [*out, session_line(event.get("session_id"), event.get("model"))]
        if kind == "message":  # the user's prompt, echoed: logged in its own group already
            return out
        if kind == "tool_use":
            name = as_str(event.get("tool_name")) or "?"
            return [*out, f"tool: {name} {tool_args(event.get('parameters'))}".rstrip()]
        if kind == "tool_result":
            error = as_dict(event.get("error"))
            if event.get("status") == "error" or error:
                message = as_str(error.get("message")) or as_str(event.get("output")) or "failed"
                return out + tool_result(message, error=True)
            return out + tool_result(_content_text(event.get("output")))
        if kind == "error":
            severity = as_str(event.get("severity")) or "error"
            label = "error:" if severity == "error" else f"{severity}:"
            return out + labelled(label, as_str(event.get("message")) or "?")
        if kind == "result":
            return out + self._result(event)
        if kind is None and any(key in event for key in ("response", "error", "stats")):
            return out + self._document(event)
        return [*out, f"event: {kind or '?'}"]

    def end(self) -> Lines:
        return self._said()

    def _said(self) -> Lines:
        if not self._text:
            return []
        text, self._text = "".join(self._text), []
        return labelled("assistant:", text) if text.strip() else []

    @staticmethod
    def _stats(stats: dict[str, Any]) -> str:
        calls = as_int(stats.get("tool_calls")) or as_int(
            as_dict(stats.get("tools")).get("totalCalls")
        )
        if "input_tokens" in stats or "output_tokens" in stats:
            spent = tokens(stats)
        else:  # the json document: per-model token counts
            models = [
                as_dict(as_dict(m).get("tokens")) for m in as_dict(stats.get("models")).values()
            ]
            spent = tokens(
                {
                    "input_tokens": sum(as_int(t.get("prompt") or t.get("input")) for t in models),
                    "output_tokens": sum(as_int(t.get("candidates")) for t in models),
                }
            )
        seconds = as_float(stats.get("duration_ms"))
        return facts(
            spent,
            f"{calls} tool call(s)" if calls else None,
            f"{seconds / 1000:.1f} s" if seconds is not None else None,
        )

    def _result(self, event: dict[str, Any]) -> Lines:
        status = as_str(event.get("status")) or "?"
        lines = [facts(f"result: {status}", self._stats(as_dict(event.get("stats"))))]
        error = as_dict(event.get("error"))
        if error:
            lines += labelled(
                "error:", facts(as_str(error.get("type")), as_str(error.get("message")))
            )
        return lines

    def _document(self, doc: dict[str, Any]) -> Lines:
        out = [session_line(doc.get("session_id"))] if doc.get("session_id") else []
        response = as_str(doc.get("response"))
        if response:
            out += labelled("assistant:", response)
        error = as_dict(doc.get("error"))
        if error:
            code = error.get("code")
            out += labelled(
                "error:",
                facts(as_str(error.get("type")), as_str(error.get("message")))
                + (f" (code {code})" if code is not None else ""),
            )
        out.append(
            facts(
                "result: error" if error else "result: done", self._stats(as_dict(doc.get("stats")))
            )
        )
        return out


class WrapperTranscript(EventTranscript):
    """The wrapper protocol: run events around the Agent SDK's messages (``stream``)."""

    _QUIET = frozenset({"ready", "state", "status", "shutdown", "auto_shutdown", "heartbeat"})

    def event(self, event: dict[str, Any]) -> Lines:
        name = as_str(event.get("event")) or "?"
        if name == "stream":
            return self._payload(as_dict(event.get("payload")))
        if name in self._QUIET:
            return []
        if name == "run_started":
            return ["run: started"]
        if name.startswith("run_"):
            reason = as_str(event.get("reason"))
            line = f"run: {name[4:]}" + (f" ({reason})" if reason else "")
            error = as_str(event.get("error"))
            return [line] + (labelled("error:", error) if error else [])
        if name == "limit_notice":
            return labelled("error: limit notice:", as_str(event.get("message")) or "limit reached")
        if name in ("error", "fatal"):
            text = facts(as_str(event.get("error")), as_str(event.get("details")))
            return labelled("error:", text or name)
        return [f"event: {name}"]

    @staticmethod
    def _payload(payload: dict[str, Any]) -> Lines:
        kind = payload.get("message_type")
        if kind == "SystemMessage":
            data = as_dict(payload.get("data"))
            if payload.get("subtype") == "init" or data.get("subtype") == "init":
                return [session_line(data.get("session_id"), data.get("model"), data.get("cwd"))]
            return [f"system: {payload.get('subtype') or '?'}"]
        if kind in ("AssistantMessage", "UserMessage"):
            out = content_blocks(payload.get("content"))
            if kind == "UserMessage":
                out = [line for line in out if line.startswith(INDENT)]
            return out
        if kind == "ResultMessage":
            return claude_result_line(payload)
        return [f"event: {kind or '?'}"]


class OpenAITranscript(EventTranscript):
    """autofix's OpenAI-compatible client: request, retry, note, response, error."""

    def event(self, event: dict[str, Any]) -> Lines:
        name = as_str(event.get("event")) or "?"
        if name == "request":
            number = as_int(event.get("try")) or 1  # the client's HTTP retries, not an Airflow try
            return [f"request: POST {event.get('url')} (HTTP request {number})"]
        if name == "retry":
            wait = as_float(event.get("wait_s"))
            when = f"in {wait:g} s" if wait is not None else "again"
            return labelled(f"retry {when}:", as_str(event.get("reason")) or "?")
        if name == "note":
            return labelled("note:", as_str(event.get("message")) or "")
        if name == "response":
            out = labelled("assistant:", as_str(event.get("text")) or "(empty)")
            refusal = as_str(event.get("refusal"))
            if refusal:
                out += labelled("refusal:", refusal)
            latency = as_float(event.get("latency_ms"))
            out.append(
                facts(
                    f"result: {as_str(event.get('finish_reason')) or 'done'}",
                    as_str(event.get("model")),
                    tokens(as_dict(event.get("usage"))),
                    f"{latency / 1000:.1f} s" if latency is not None else None,
                )
            )
            return out
        if name == "error":
            kind = as_str(event.get("kind")) or "error"
            return labelled(f"error ({kind}):", as_str(event.get("message")) or "?")
        return [f"event: {name}"]


_BY_PARSER: dict[str, type[EventTranscript]] = {
    "claude": ClaudeTranscript,
    "codex": CodexTranscript,
    "gemini": GeminiTranscript,
    "wrapper": WrapperTranscript,
    "openai": OpenAITranscript,
}


def transcript_for(agent_format: AgentFormat) -> Transcript:
    """The renderer for what ``agent_format`` prints. It follows the format's parser, so the
    scripted agent reads as the CLI it imitates; plain and unknown formats show lines as is."""
    if not agent_format.has_event_stream:
        return Transcript()
    name = getattr(agent_format.parser(), "agent_name", None)
    renderer = _BY_PARSER.get(name) if isinstance(name, str) else None
    return renderer() if renderer is not None else Transcript()
