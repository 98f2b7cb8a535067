"""A fake OpenAI Responses API (what Codex CLI talks to through a custom model provider).

Model calls: ``POST /v1/responses`` with ``"stream": true``, answered as SSE with the event
names of https://platform.openai.com/docs/api-reference/responses-streaming:
``response.created``, ``response.in_progress``, ``response.output_item.added``,
``response.content_part.added``, ``response.output_text.delta`` / ``.done``,
``response.function_call_arguments.delta`` / ``.done`` (``response.custom_tool_call_input.delta``
/ ``.done`` for a freeform tool such as ``apply_patch``), ``response.output_item.done`` and one
terminal event: ``response.completed``, ``response.incomplete`` (``incomplete_details.reason``
``max_output_tokens`` / ``content_filter``) or ``response.failed`` (``response.error`` with a
``code``); or a bare ``error`` event.

HTTP errors use the API's shape: ``{"error": {"message": ..., "type": ..., "param": null,
"code": ...}}`` (e.g. 401 ``invalid_api_key``, 429 ``rate_limit_exceeded`` or
``insufficient_quota``, 404 ``model_not_found``, 400 ``context_length_exceeded``), with the
``x-ratelimit-*`` headers; the ChatGPT-plan usage limit is a 429 whose error has
``type: usage_limit_reached`` with ``plan_type`` and ``resets_at``/``resets_in_seconds``
(the shape Codex parses, codex-rs/core/src/api_bridge.rs).

Auxiliary: ``GET /v1/models`` answers a one-model list (401 ``invalid_api_key`` when the server
was given an ``api_key`` and the request's bearer token differs); anything else 404.
"""

from __future__ import annotations

import itertools
import json
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from agent_apis.core import Reply, RequestKind, ScriptedServer, SseEvent

DEFAULT_MODEL = "gpt-5.5"
_ids = itertools.count(1)


def _next_id(prefix: str) -> str:
    return f"{prefix}_{next(_ids):032x}"


def _chunks(text: str, size: int) -> list[str]:
    return [text[i : i + size] for i in range(0, len(text), size)] or [""]


@dataclass(frozen=True)
class Text:
    text: str


@dataclass(frozen=True)
class FunctionCall:
    name: str
    arguments: Mapping[str, Any]


@dataclass(frozen=True)
class Refusal:
    """A message whose content is a ``refusal`` part (after optional partial text)."""

    refusal: str
    partial: str = ""


@dataclass(frozen=True)
class Reasoning:
    """A ``reasoning`` output item with a readable summary (what reasoning models stream first)."""

    summary: str


@dataclass(frozen=True)
class CustomToolCall:
    """A freeform (``custom``) tool call, e.g. Codex's ``apply_patch``: raw text input, no JSON."""

    name: str
    input: str


Item = Text | FunctionCall | Refusal | Reasoning | CustomToolCall


class _Stream:
    """Builds one response's event list with running sequence numbers."""

    def __init__(self, model: str) -> None:
        self.seq = 0
        self.events: list[SseEvent] = []
        self.response: dict[str, Any] = {
            "id": _next_id("resp"),
            "object": "response",
            "created_at": int(time.time()),
            "status": "in_progress",
            "error": None,
            "incomplete_details": None,
            "model": model,
            "output": [],
            "usage": None,
        }

    def add(self, kind: str, **fields: Any) -> None:
        self.events.append(SseEvent({"type": kind, "sequence_number": self.seq, **fields}, kind))
        self.seq += 1

    def snapshot(self, **changes: Any) -> dict[str, Any]:
        return {**self.response, **changes}


def usage(input_tokens: int = 1500, output_tokens: int = 12) -> dict[str, Any]:
    return {
        "input_tokens": input_tokens,
        "input_tokens_details": {"cached_tokens": 0},
        "output_tokens": output_tokens,
        "output_tokens_details": {"reasoning_tokens": 0},
        "total_tokens": input_tokens + output_tokens,
    }


def response(
    *items: Item,
    terminal: str = "completed",
    incomplete_reason: str | None = None,
    error_code: str | None = None,
    error_message: str = "",
    model: str = DEFAULT_MODEL,
    chunk: int = 12,
    end: bool = True,
    headers: Mapping[str, str] | None = None,
    label: str = "",
    **reply_options: Any,
) -> Reply:
    """One streamed response.

    ``terminal``: ``completed``, ``incomplete`` (with ``incomplete_reason``) or ``failed`` (with
    ``error_code`` / ``error_message``). ``end=False`` leaves the terminal event out.
    """
    stream = _Stream(model)
    stream.add("response.created", response=stream.snapshot())
    stream.add("response.in_progress", response=stream.snapshot())
    output: list[dict[str, Any]] = []
    for index, item in enumerate(items):
        if isinstance(item, Text):
            item_id = _next_id("msg")
            added = {
                "id": item_id,
                "type": "message",
                "status": "in_progress",
                "role": "assistant",
                "content": [],
            }
            stream.add("response.output_item.added", output_index=index, item=added)
            part = {"type": "output_text", "text": "", "annotations": []}
            stream.add(
                "response.content_part.added",
                item_id=item_id,
                output_index=index,
                content_index=0,
                part=part,
            )
            for piece in _chunks(item.text, chunk):
                stream.add(
                    "response.output_text.delta",
                    item_id=item_id,
                    output_index=index,
                    content_index=0,
                    delta=piece,
                )
            stream.add(
                "response.output_text.done",
                item_id=item_id,
                output_index=index,
                content_index=0,
                text=item.text,
            )
            full_part = {"type": "output_text", "text": item.text, "annotations": []}
            stream.add(
                "response.content_part.done",
                item_id=item_id,
                output_index=index,
                content_index=0,
                part=full_part,
            )
            done = {**added, "status": "completed", "content": [full_part]}
        elif isinstance(item, Refusal):
            item_id = _next_id("msg")
            added = {
                "id": item_id,
                "type": "message",
                "status": "in_progress",
                "role": "assistant",
                "content": [],
            }
            stream.add("response.output_item.added", output_index=index, item=added)
            parts: list[dict[str, Any]] = []
            if item.partial:
                text_part = {"type": "output_text", "text": item.partial, "annotations": []}
                stream.add(
                    "response.content_part.added",
                    item_id=item_id,
                    output_index=index,
                    content_index=0,
                    part={**text_part, "text": ""},
                )
                stream.add(
                    "response.output_text.delta",
                    item_id=item_id,
                    output_index=index,
                    content_index=0,
                    delta=item.partial,
                )
                stream.add(
                    "response.output_text.done",
                    item_id=item_id,
                    output_index=index,
                    content_index=0,
                    text=item.partial,
                )
                stream.add(
                    "response.content_part.done",
                    item_id=item_id,
                    output_index=index,
                    content_index=0,
                    part=text_part,
                )
                parts.append(text_part)
            refusal_index = len(parts)
            refusal_part = {"type": "refusal", "refusal": item.refusal}
            stream.add(
                "response.content_part.added",
                item_id=item_id,
                output_index=index,
                content_index=refusal_index,
                part={"type": "refusal", "refusal": ""},
            )
            stream.add(
                "response.refusal.delta",
                item_id=item_id,
                output_index=index,
                content_index=refusal_index,
                delta=item.refusal,
            )
            stream.add(
                "response.refusal.done",
                item_id=item_id,
                output_index=index,
                content_index=refusal_index,
                refusal=item.refusal,
            )
            stream.add(
                "response.content_part.done",
                item_id=item_id,
                output_index=index,
                content_index=refusal_index,
                part=refusal_part,
            )
            parts.append(refusal_part)
            done = {**added, "status": "completed", "content": parts}
        elif isinstance(item, Reasoning):
            item_id = _next_id("rs")
            added = {"id": item_id, "type": "reasoning", "summary": []}
            stream.add("response.output_item.added", output_index=index, item=added)
            summary_part = {"type": "summary_text", "text": item.summary}
            stream.add(
                "response.reasoning_summary_part.added",
                item_id=item_id,
                output_index=index,
                summary_index=0,
                part={**summary_part, "text": ""},
            )
            stream.add(
                "response.reasoning_summary_text.delta",
                item_id=item_id,
                output_index=index,
                summary_index=0,
                delta=item.summary,
            )
            stream.add(
                "response.reasoning_summary_text.done",
                item_id=item_id,
                output_index=index,
                summary_index=0,
                text=item.summary,
            )
            stream.add(
                "response.reasoning_summary_part.done",
                item_id=item_id,
                output_index=index,
                summary_index=0,
                part=summary_part,
            )
            done = {**added, "summary": [summary_part]}
        elif isinstance(item, CustomToolCall):
            item_id = _next_id("ctc")
            call_id = _next_id("call")
            added = {
                "id": item_id,
                "type": "custom_tool_call",
                "status": "in_progress",
                "call_id": call_id,
                "name": item.name,
                "input": "",
            }
            stream.add("response.output_item.added", output_index=index, item=added)
            for piece in _chunks(item.input, chunk):
                stream.add(
                    "response.custom_tool_call_input.delta",
                    item_id=item_id,
                    output_index=index,
                    delta=piece,
                )
            stream.add(
                "response.custom_tool_call_input.done",
                item_id=item_id,
                output_index=index,
                input=item.input,
            )
            done = {**added, "status": "completed", "input": item.input}
        else:
            item_id = _next_id("fc")
            call_id = _next_id("call")
            arguments = json.dumps(dict(item.arguments))
            added = {
                "id": item_id,
                "type": "function_call",
                "status": "in_progress",
                "call_id": call_id,
                "name": item.name,
                "arguments": "",
            }
            stream.add("response.output_item.added", output_index=index, item=added)
            for piece in _chunks(arguments, chunk):
                stream.add(
                    "response.function_call_arguments.delta",
                    item_id=item_id,
                    output_index=index,
                    delta=piece,
                )
            stream.add(
                "response.function_call_arguments.done",
                item_id=item_id,
                output_index=index,
                arguments=arguments,
            )
            done = {**added, "status": "completed", "arguments": arguments}
        stream.add("response.output_item.done", output_index=index, item=done)
        output.append(done)
    out_tokens = 5 + sum(len(i.text) // 4 if isinstance(i, Text) else 20 for i in items)
    if end:
        final = stream.snapshot(output=output, usage=usage(output_tokens=out_tokens))
        if terminal == "completed":
            stream.add("response.completed", response={**final, "status": "completed"})
        elif terminal == "incomplete":
            stream.add(
                "response.incomplete",
                response={
                    **final,
                    "status": "incomplete",
                    "incomplete_details": {"reason": incomplete_reason or "max_output_tokens"},
                },
            )
        elif terminal == "failed":
            stream.add(
                "response.failed",
                response={
                    **final,
                    "status": "failed",
                    "error": {"code": error_code or "server_error", "message": error_message},
                },
            )
        else:
            raise ValueError(f"unknown terminal {terminal!r}")
    return Reply(
        200,
        headers={"x-request-id": _next_id("req"), **dict(headers or {})},
        events=tuple(stream.events),
        label=label or (terminal if end else "cut"),
        **reply_options,
    )


def text(answer: str, **options: Any) -> Reply:
    return response(Text(answer), **options)


def function_call(name: str, arguments: Mapping[str, Any], **options: Any) -> Reply:
    return response(FunctionCall(name, arguments), label=f"function_call:{name}", **options)


def custom_tool_call(name: str, text: str, **options: Any) -> Reply:
    """A freeform tool call (``apply_patch``'s patch text), streamed as ``custom_tool_call``."""
    return response(CustomToolCall(name, text), label=f"custom_tool_call:{name}", **options)


def stream_error_event(
    code: str, message: str, partial: str = "", label: str = "", **options: Any
) -> Reply:
    """HTTP 200, then (after optional partial text) a bare ``error`` event and no terminal."""
    base = response(Text(partial), end=False) if partial else response(end=False)
    seq = len(base.events)
    event = SseEvent(
        {"type": "error", "sequence_number": seq, "code": code, "message": message, "param": None},
        "error",
    )
    events: Sequence[SseEvent] = (*base.events, event)
    return Reply(
        200, headers=base.headers, events=events, label=label or f"error_event:{code}", **options
    )


def error_body(
    message: str, error_type: str, code: str | None, extra: Mapping[str, Any] | None = None
) -> Any:
    return {
        "error": {
            "message": message,
            "type": error_type,
            "param": None,
            "code": code,
            **dict(extra or {}),
        }
    }


def error(
    status: int,
    message: str,
    error_type: str,
    code: str | None = None,
    headers: Mapping[str, str] | None = None,
    extra: Mapping[str, Any] | None = None,
    label: str = "",
    **options: Any,
) -> Reply:
    return Reply(
        status,
        headers={"x-request-id": _next_id("req"), **dict(headers or {})},
        body=error_body(message, error_type, code, extra),
        label=label or f"{status}:{code or error_type}",
        **options,
    )


def rate_limit_headers(
    reset_requests: str = "1s", reset_tokens: str = "6m0s", retry_after: str | None = "1"
) -> dict[str, str]:
    headers = {
        "x-ratelimit-limit-requests": "500",
        "x-ratelimit-remaining-requests": "0",
        "x-ratelimit-reset-requests": reset_requests,
        "x-ratelimit-limit-tokens": "30000",
        "x-ratelimit-remaining-tokens": "0",
        "x-ratelimit-reset-tokens": reset_tokens,
    }
    if retry_after is not None:
        headers["retry-after"] = retry_after
    return headers


class OpenAIResponsesServer(ScriptedServer):
    provider = "openai"
    api_prefix = "/v1"

    def classify(self, method: str, path: str) -> RequestKind:
        if method == "POST" and path == "/v1/responses":
            return "model"
        if path.startswith("/v1/"):
            return "aux"
        return "unknown"

    def aux_reply(self, method: str, path: str, body: Any) -> Reply:
        if method == "GET" and path == "/v1/models":
            model = {"id": DEFAULT_MODEL, "object": "model", "created": 0, "owned_by": "openai"}
            return Reply(200, body={"object": "list", "data": [model]}, label="models")
        return self.not_found(path)

    def not_found(self, path: str) -> Reply:
        body = error_body(f"Invalid URL (POST {path})", "invalid_request_error", None)
        return Reply(404, body=body, label="404")

    def bad_key_reply(self) -> Reply:
        return error(
            401,
            "Incorrect API key provided.",
            "invalid_request_error",
            "invalid_api_key",
            label="401:bad_key",
        )
