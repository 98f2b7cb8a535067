"""A fake Gemini API (what Gemini CLI talks to with ``GOOGLE_GEMINI_BASE_URL``).

Model calls: ``POST /v1beta/models/{model}:streamGenerateContent?alt=sse``, answered as SSE
``data:`` lines, each a ``GenerateContentResponse`` chunk (``candidates[0].content.parts``:
``text`` or ``functionCall``; the last chunk with ``finishReason``: STOP, MAX_TOKENS, SAFETY,
RECITATION, PROHIBITED_CONTENT, MALFORMED_FUNCTION_CALL, ... and ``usageMetadata``), or a
chunk with ``promptFeedback.blockReason`` and no candidates (a blocked prompt).

Utility calls: ``:generateContent`` (non-streaming; Gemini CLI uses it for routing, loop and
next-speaker checks, summaries) answer ``{"next_speaker": "user", ...}``-style JSON text unless
the scenario gives a ``utility`` reply (a next-speaker check after a model turn holding
``CONTINUE_MARKER`` answers ``"model"``; chat compression's summary requests get a
``<state_snapshot>``); ``:countTokens`` answers a count.

Errors use Google's shape: ``{"error": {"code": 429, "message": "...", "status":
"RESOURCE_EXHAUSTED", "details": [...]}}`` with ``google.rpc.ErrorInfo`` (reason
``API_KEY_INVALID``...), ``QuotaFailure`` (``quotaId`` ...PerMinute / ...PerDay) and
``RetryInfo`` (``retryDelay``) details, which Gemini CLI reads
(packages/core/src/utils/googleQuotaErrors.ts).
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from agent_apis.core import Reply, RequestKind, ScriptedServer, SseEvent

DEFAULT_MODEL = "gemini-2.5-flash"
_ids = itertools.count(1)
_MODEL_PATH = re.compile(r"^/v1(?:beta|alpha)?/models/([^:/]+):([A-Za-z]+)$")

STATUS_NAMES: Mapping[int, str] = {
    400: "INVALID_ARGUMENT",
    401: "UNAUTHENTICATED",
    403: "PERMISSION_DENIED",
    404: "NOT_FOUND",
    429: "RESOURCE_EXHAUSTED",
    499: "CANCELLED",
    500: "INTERNAL",
    503: "UNAVAILABLE",
    504: "DEADLINE_EXCEEDED",
}


@dataclass(frozen=True)
class Text:
    text: str


@dataclass(frozen=True)
class FunctionCall:
    name: str
    args: Mapping[str, Any]


Part = Text | FunctionCall


def usage(prompt: int = 1800, candidates: int = 8) -> dict[str, Any]:
    return {
        "promptTokenCount": prompt,
        "candidatesTokenCount": candidates,
        "totalTokenCount": prompt + candidates,
        "promptTokensDetails": [{"modality": "TEXT", "tokenCount": prompt}],
    }


def _chunks(text: str, size: int) -> list[str]:
    return [text[i : i + size] for i in range(0, len(text), size)] or [""]


def _part_json(part: Part) -> dict[str, Any]:
    if isinstance(part, Text):
        return {"text": part.text}
    return {"functionCall": {"name": part.name, "args": dict(part.args)}}


def content(
    *parts: Part,
    finish_reason: str | None = "STOP",
    safety_blocked: str | None = None,
    model: str = DEFAULT_MODEL,
    chunk: int = 16,
    end: bool = True,
    headers: Mapping[str, str] | None = None,
    label: str = "",
    prompt_tokens: int = 1800,
    **reply_options: Any,
) -> Reply:
    """A streamed model answer: text split over chunks, function calls whole, the finish reason
    on the last chunk. ``safety_blocked`` names a harm category rated HIGH and blocked there.
    ``end=False``: no final chunk (cut the stream with ``drop_after`` / ``stall_after``).
    ``prompt_tokens``: the ``usageMetadata.promptTokenCount`` reported (what Gemini CLI keeps as
    the context size it compares with the model's window: compression, overflow)."""
    response_id = f"resp-{next(_ids):06d}"
    events: list[SseEvent] = []
    whole: list[dict[str, Any]] = []
    out_tokens = 1 + sum(len(p.text) // 4 if isinstance(p, Text) else 10 for p in parts)

    def chunk_event(chunk_parts: list[dict[str, Any]], final: bool) -> SseEvent:
        candidate: dict[str, Any] = {"index": 0}
        if chunk_parts:
            candidate["content"] = {"parts": chunk_parts, "role": "model"}
        if final and finish_reason is not None:
            candidate["finishReason"] = finish_reason
            if safety_blocked:
                candidate["safetyRatings"] = [
                    {"category": safety_blocked, "probability": "HIGH", "blocked": True}
                ]
        data: dict[str, Any] = {
            "candidates": [candidate],
            "modelVersion": model,
            "responseId": response_id,
        }
        if final:
            data["usageMetadata"] = usage(prompt=prompt_tokens, candidates=out_tokens)
        return SseEvent(data)

    pieces: list[dict[str, Any]] = []
    for part in parts:
        if isinstance(part, Text):
            pieces += [{"text": piece} for piece in _chunks(part.text, chunk)]
        else:
            pieces.append(_part_json(part))
        whole.append(_part_json(part))
    if end:
        last = pieces.pop() if pieces else None
        events += [chunk_event([piece], final=False) for piece in pieces]
        events.append(chunk_event([last] if last else [], final=True))
    else:
        events += [chunk_event([piece], final=False) for piece in pieces]
    candidate: dict[str, Any] = {"index": 0, "content": {"parts": whole, "role": "model"}}
    if finish_reason is not None:
        candidate["finishReason"] = finish_reason
    body = {
        "candidates": [candidate],
        "usageMetadata": usage(prompt=prompt_tokens, candidates=out_tokens),
        "modelVersion": model,
        "responseId": response_id,
    }
    return Reply(
        200,
        headers=dict(headers or {}),
        body=body,
        events=tuple(events),
        label=label or (finish_reason or "cut").lower(),
        **reply_options,
    )


def text(answer: str, finish_reason: str = "STOP", **options: Any) -> Reply:
    return content(Text(answer), finish_reason=finish_reason, **options)


def function_call(name: str, args: Mapping[str, Any], **options: Any) -> Reply:
    return content(FunctionCall(name, args), label=f"function_call:{name}", **options)


def prompt_blocked(block_reason: str = "SAFETY", label: str = "", **options: Any) -> Reply:
    """The prompt itself was blocked: ``promptFeedback.blockReason`` and no candidates."""
    data = {
        "promptFeedback": {
            "blockReason": block_reason,
            "safetyRatings": [
                {
                    "category": "HARM_CATEGORY_DANGEROUS_CONTENT",
                    "probability": "HIGH",
                    "blocked": True,
                }
            ],
        },
        "usageMetadata": {"promptTokenCount": 1800, "totalTokenCount": 1800},
        "modelVersion": DEFAULT_MODEL,
        "responseId": f"resp-{next(_ids):06d}",
    }
    return Reply(
        200,
        body=data,
        events=(SseEvent(data),),
        label=label or f"blocked:{block_reason}",
        **options,
    )


def error_body(
    status: int, message: str, details: Sequence[Mapping[str, Any]] = (), status_name: str = ""
) -> Any:
    error: dict[str, Any] = {
        "code": status,
        "message": message,
        "status": status_name or STATUS_NAMES.get(status, "UNKNOWN"),
    }
    if details:
        error["details"] = [dict(d) for d in details]
    return {"error": error}


def error(
    status: int,
    message: str,
    details: Sequence[Mapping[str, Any]] = (),
    status_name: str = "",
    headers: Mapping[str, str] | None = None,
    label: str = "",
    **options: Any,
) -> Reply:
    body = error_body(status, message, details, status_name)
    return Reply(
        status,
        headers={"content-type": "application/json; charset=UTF-8", **dict(headers or {})},
        body=body,
        label=label or f"{status}:{body['error']['status']}",
        **options,
    )


def error_info(reason: str, domain: str = "googleapis.com", **metadata: str) -> dict[str, Any]:
    return {
        "@type": "type.googleapis.com/google.rpc.ErrorInfo",
        "reason": reason,
        "domain": domain,
        "metadata": {"service": "generativelanguage.googleapis.com", **metadata},
    }


def quota_failure(quota_id: str, metric: str, limit: str = "") -> dict[str, Any]:
    violation: dict[str, Any] = {
        "quotaMetric": metric,
        "quotaId": quota_id,
        "quotaDimensions": {"location": "global", "model": DEFAULT_MODEL},
    }
    if limit:
        violation["quotaValue"] = limit
    return {"@type": "type.googleapis.com/google.rpc.QuotaFailure", "violations": [violation]}


def retry_info(delay: str) -> dict[str, Any]:
    return {"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": delay}


def help_link(description: str, url: str) -> dict[str, Any]:
    return {
        "@type": "type.googleapis.com/google.rpc.Help",
        "links": [{"description": description, "url": url}],
    }


# A model turn whose text holds this marker makes the next-speaker check (a utility call Gemini
# CLI makes after a text turn when settings model.skipNextSpeakerCheck is false) answer "model":
# the CLI then sends "Please continue." as a new turn. Nothing else changes the default answer.
CONTINUE_MARKER = "[continuing]"


def _next_speaker_check(body: Any) -> bool:
    if not isinstance(body, dict):
        return False
    return "next_speaker" in json.dumps(body.get("generationConfig") or {})


def _last_text(body: Any, role: str) -> str:
    contents = body.get("contents") if isinstance(body, dict) else None
    for item in reversed(contents or []):
        if isinstance(item, dict) and item.get("role") == role:
            parts = item.get("parts") or []
            return "".join(str(p.get("text", "")) for p in parts if isinstance(p, dict))
    return ""


def _last_model_text(body: Any) -> str:
    return _last_text(body, "model")


def _last_user_text(body: Any) -> str:
    """The summary requests of chat compression end with a user turn asking for a
    ``<state_snapshot>``: those get a snapshot instead of the default JSON."""
    return _last_text(body, "user")


class GeminiServer(ScriptedServer):
    provider = "gemini"

    def classify(self, method: str, path: str) -> RequestKind:
        match = _MODEL_PATH.match(path)
        if method == "POST" and match:
            action = match.group(2)
            if action == "streamGenerateContent":
                return "model"
            if action == "generateContent":
                return "utility"
            return "aux"
        if path.startswith(("/v1beta/", "/v1/", "/v1alpha/")):
            return "aux"
        return "unknown"

    def is_streaming(self, path: str, query: Mapping[str, str], body: Any) -> bool:
        return path.endswith(":streamGenerateContent")

    def utility_reply(self, method: str, path: str, body: Any) -> Reply:
        if _next_speaker_check(body) and CONTINUE_MARKER in _last_model_text(body):
            answer = json.dumps(
                {"reasoning": "The model said it would go on.", "next_speaker": "model"}
            )
            reply = content(Text(answer), label="utility")
            return Reply(200, body=reply.body, label="utility:next_speaker=model")
        if "<state_snapshot>" in _last_user_text(body):
            snapshot = (
                "<state_snapshot>\n<overall_goal>Answer the user.</overall_goal>\n"
                "<key_knowledge>Half of the work is done.</key_knowledge>\n</state_snapshot>"
            )
            reply = content(Text(snapshot), label="utility")
            return Reply(200, body=reply.body, label="utility:state_snapshot")
        answer = json.dumps(
            {"reasoning": "The model answered; the user speaks next.", "next_speaker": "user"}
        )
        reply = content(Text(answer), label="utility")
        return Reply(200, body=reply.body, label="utility")

    def aux_reply(self, method: str, path: str, body: Any) -> Reply:
        if path.endswith(":countTokens"):
            return Reply(200, body={"totalTokens": 1800}, label="countTokens")
        if method == "GET" and path.rstrip("/").endswith("/models"):
            model = {"name": f"models/{DEFAULT_MODEL}", "displayName": "Gemini"}
            return Reply(200, body={"models": [model]}, label="models")
        return self.not_found(path)

    def not_found(self, path: str) -> Reply:
        body = error_body(404, f"Method not found: {path}", status_name="NOT_FOUND")
        return Reply(404, body=body, label="404")

    def bad_key_reply(self) -> Reply:
        # What the Gemini API answers a bad key: 400 INVALID_ARGUMENT, reason API_KEY_INVALID.
        return error(
            400,
            "API key not valid. Please pass a valid API key.",
            [error_info("API_KEY_INVALID", service="generativelanguage.googleapis.com")],
            label="400:bad_key",
        )
