"""A fake Anthropic Messages API (what Claude Code talks to with ``ANTHROPIC_BASE_URL``).

Model calls: ``POST /v1/messages`` (Claude Code adds ``?beta=true``), streamed as SSE
(``message_start``, ``content_block_start`` / ``_delta`` / ``_stop``, ``message_delta`` with the
stop reason and usage, ``message_stop``) or, when the request has no ``"stream": true`` (Claude
Code falls back to that after some stream failures), one JSON message.

Errors use the API's shape (https://docs.claude.com/en/api/errors):
``{"type": "error", "error": {"type": "rate_limit_error", "message": "..."},
"request_id": "req_..."}`` with 400 invalid_request_error, 401 authentication_error,
403 permission_error, 404 not_found_error, 413 request_too_large, 429 rate_limit_error,
500 api_error, 529 overloaded_error; a stream can also end in an ``error`` event after a 200.

Auxiliary endpoints: ``HEAD /api/hello`` (Claude Code's connectivity probe) answers 200,
``POST /v1/messages/count_tokens`` a token count, ``GET /v1/models`` a one-model list (refused
with 401 authentication_error when the server was given an ``api_key`` and the request's
``x-api-key`` differs); anything else 404 in the API's error shape.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from agent_apis.core import Reply, RequestKind, ScriptedServer, SseEvent

DEFAULT_MODEL = "claude-sonnet-4-5"
_ids = itertools.count(1)

ERROR_TYPES: Mapping[int, str] = {
    400: "invalid_request_error",
    401: "authentication_error",
    402: "billing_error",
    403: "permission_error",
    404: "not_found_error",
    413: "request_too_large",
    429: "rate_limit_error",
    500: "api_error",
    503: "api_error",
    504: "timeout_error",
    529: "overloaded_error",
}


@dataclass(frozen=True)
class Text:
    text: str


@dataclass(frozen=True)
class ToolUse:
    name: str
    input: Mapping[str, Any]
    id: str = ""


Block = Text | ToolUse


def _next_id(prefix: str) -> str:
    return f"{prefix}_{next(_ids):024d}"


def request_id() -> str:
    return _next_id("req")


def _chunks(text: str, size: int) -> list[str]:
    return [text[i : i + size] for i in range(0, len(text), size)] or [""]


def message(
    *blocks: Block,
    stop_reason: str | None = "end_turn",
    model: str = DEFAULT_MODEL,
    input_tokens: int = 1200,
    output_tokens: int | None = None,
    chunk: int = 12,
    end: bool = True,
    headers: Mapping[str, str] | None = None,
    label: str = "",
    **reply_options: Any,
) -> Reply:
    """One assistant message, as a stream and as the non-streaming JSON body.

    ``end=False`` leaves out ``message_delta`` and ``message_stop`` (use with ``drop_after`` or
    ``stall_after`` to cut the stream where you like).
    """
    msg_id = _next_id("msg")
    content: list[dict[str, Any]] = []
    events: list[SseEvent] = []
    out_tokens = (
        output_tokens
        if output_tokens is not None
        else 5 + sum(len(b.text) // 4 if isinstance(b, Text) else 20 for b in blocks)
    )
    usage_start = {
        "input_tokens": input_tokens,
        "cache_creation_input_tokens": 0,
        "cache_read_input_tokens": 0,
        "output_tokens": 1,
        "service_tier": "standard",
    }
    events.append(
        SseEvent(
            {
                "type": "message_start",
                "message": {
                    "id": msg_id,
                    "type": "message",
                    "role": "assistant",
                    "model": model,
                    "content": [],
                    "stop_reason": None,
                    "stop_sequence": None,
                    "usage": usage_start,
                },
            },
            "message_start",
        )
    )
    for index, block in enumerate(blocks):
        if isinstance(block, Text):
            content.append({"type": "text", "text": block.text})
            start: dict[str, Any] = {"type": "text", "text": ""}
            deltas = [{"type": "text_delta", "text": part} for part in _chunks(block.text, chunk)]
        else:
            tool_id = block.id or _next_id("toolu")
            content.append(
                {"type": "tool_use", "id": tool_id, "name": block.name, "input": dict(block.input)}
            )
            start = {"type": "tool_use", "id": tool_id, "name": block.name, "input": {}}
            raw = json.dumps(dict(block.input))
            deltas = [
                {"type": "input_json_delta", "partial_json": part} for part in _chunks(raw, chunk)
            ]
        events.append(
            SseEvent(
                {"type": "content_block_start", "index": index, "content_block": start},
                "content_block_start",
            )
        )
        if index == 0:
            events.append(SseEvent({"type": "ping"}, "ping"))
        for delta in deltas:
            events.append(
                SseEvent(
                    {"type": "content_block_delta", "index": index, "delta": delta},
                    "content_block_delta",
                )
            )
        events.append(
            SseEvent({"type": "content_block_stop", "index": index}, "content_block_stop")
        )
    if end:
        events.append(
            SseEvent(
                {
                    "type": "message_delta",
                    "delta": {"stop_reason": stop_reason, "stop_sequence": None},
                    "usage": {"output_tokens": out_tokens},
                },
                "message_delta",
            )
        )
        events.append(SseEvent({"type": "message_stop"}, "message_stop"))
    body = {
        "id": msg_id,
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": content,
        "stop_reason": stop_reason,
        "stop_sequence": None,
        "usage": {**usage_start, "output_tokens": out_tokens},
    }
    base_headers = {"request-id": request_id(), **dict(headers or {})}
    return Reply(
        200,
        headers=base_headers,
        body=body,
        events=tuple(events),
        label=label or (stop_reason or "cut"),
        **reply_options,
    )


def text(answer: str, stop_reason: str = "end_turn", **options: Any) -> Reply:
    return message(Text(answer), stop_reason=stop_reason, **options)


def tool_call(name: str, tool_input: Mapping[str, Any], preface: str = "", **options: Any) -> Reply:
    blocks: list[Block] = [Text(preface)] if preface else []
    blocks.append(ToolUse(name, tool_input))
    return message(*blocks, stop_reason="tool_use", label=f"tool_use:{name}", **options)


def error_body(error_type: str, text: str, details: Mapping[str, Any] | None = None) -> Any:
    error: dict[str, Any] = {"type": error_type, "message": text}
    if details:
        error["details"] = dict(details)
    return {"type": "error", "error": error, "request_id": request_id()}


def error(
    status: int,
    text: str,
    error_type: str | None = None,
    headers: Mapping[str, str] | None = None,
    details: Mapping[str, Any] | None = None,
    label: str = "",
    **options: Any,
) -> Reply:
    kind = error_type or ERROR_TYPES.get(status, "api_error")
    return Reply(
        status,
        headers={
            "request-id": request_id(),
            "x-should-retry": _should_retry(status),
            **(headers or {}),
        },
        body=error_body(kind, text, details),
        label=label or f"{status}:{kind}",
        **options,
    )


def _should_retry(status: int) -> str:
    return "true" if status in (408, 409, 429) or status >= 500 else "false"


def stream_error(
    partial: str, error_type: str, text: str, label: str = "", **options: Any
) -> Reply:
    """HTTP 200, some text, then an ``error`` event (how the API reports overload mid-stream)."""
    base = message(Text(partial), end=False) if partial else message(end=False)
    events: Sequence[SseEvent] = (
        *base.events,
        SseEvent({"type": "error", "error": {"type": error_type, "message": text}}, "error"),
    )
    return Reply(
        200,
        headers=base.headers,
        body=error_body(error_type, text),
        events=events,
        label=label or f"stream_error:{error_type}",
        **options,
    )


class AnthropicServer(ScriptedServer):
    provider = "anthropic"

    def classify(self, method: str, path: str) -> RequestKind:
        if method == "POST" and path == "/v1/messages":
            return "model"
        if path.startswith(("/api/", "/v1/")):
            return "aux"
        return "unknown"

    def aux_reply(self, method: str, path: str, body: Any) -> Reply:
        if path == "/api/hello":
            return Reply(200, body={"message": "hello"}, label="hello")
        if path == "/v1/messages/count_tokens":
            return Reply(200, body={"input_tokens": 1200}, label="count_tokens")
        if method == "GET" and path == "/v1/models":
            model = {
                "type": "model",
                "id": DEFAULT_MODEL,
                "display_name": "Claude Sonnet 4.5",
                "created_at": "2025-09-29T00:00:00Z",
            }
            body = {
                "data": [model],
                "has_more": False,
                "first_id": model["id"],
                "last_id": model["id"],
            }
            return Reply(200, body=body, label="models")
        return self.not_found(path)

    def bad_key_reply(self) -> Reply:
        return error(401, "invalid x-api-key", label="401:bad_key")

    def not_found(self, path: str) -> Reply:
        return Reply(404, body=error_body("not_found_error", f"Not found: {path}"), label="404")
