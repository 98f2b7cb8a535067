"""What an LLM or agent callable may return, reduced to one LLMReply."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from autofix.result import TokenUsage


@dataclass(frozen=True)
class LLMReply:
    """One answer: its text and, when the provider says so, why it stopped."""

    text: str
    finish_reason: str | None = None
    session_id: str | None = None
    usage: TokenUsage | None = None
    cost_usd: float | None = None
    structured_output: Any = None  # already-parsed output (e.g. a native JSON-schema mode)


def _get(obj: Any, name: str) -> Any:
    if isinstance(obj, Mapping):
        return obj.get(name)
    return getattr(obj, name, None)


def _text_of(content: Any) -> str | None:
    if content is None:
        return None
    if isinstance(content, str):
        return content
    if isinstance(content, list):  # Anthropic-style content blocks
        texts = [t for block in content if isinstance(t := _get(block, "text"), str)]
        return "".join(texts)
    return None


def _usage_of(raw: Any) -> TokenUsage | None:
    if raw is None:
        return None
    if isinstance(raw, TokenUsage):
        return raw
    inputs = _get(raw, "input_tokens") or _get(raw, "prompt_tokens") or 0
    outputs = _get(raw, "output_tokens") or _get(raw, "completion_tokens") or 0
    if not isinstance(inputs, int) or not isinstance(outputs, int):
        return None
    return TokenUsage(input_tokens=inputs, output_tokens=outputs)


def coerce_reply(reply: object) -> LLMReply:
    """Normalise whatever the callable returned. Raises TypeError when no text can be found.

    Accepted: a plain string; an ``LLMReply``; an ``AgentOutcome`` or ``ParseResult``
    (``final_text``); an OpenAI-style completion (``choices[0].message.content``); an
    Anthropic-style message (``content`` blocks, ``stop_reason``); any object or dict with
    ``text`` or ``content`` and optionally ``finish_reason``/``stop_reason``, ``session_id``
    and ``usage``.
    """
    if isinstance(reply, LLMReply):
        return reply
    if reply is None:
        return LLMReply("")
    if isinstance(reply, str):
        return LLMReply(reply)
    choices = _get(reply, "choices")
    if isinstance(choices, list | tuple) and choices:
        first = choices[0]
        answer = (
            _text_of(_get(_get(first, "message"), "content")) or _text_of(_get(first, "text")) or ""
        )
        return LLMReply(
            answer, _reason(_get(first, "finish_reason")), usage=_usage_of(_get(reply, "usage"))
        )
    text: str | None = None
    for name in ("final_text", "text", "content", "output_text"):
        text = _text_of(_get(reply, name))
        if text is not None:
            break
    structured = _get(reply, "structured_output")
    if text is None and structured is None:
        raise TypeError(
            f"the LLM callable returned {type(reply).__name__}; return str, LLMReply, or an object "
            "with .text/.content (and optionally .finish_reason)"
        )
    cost = _get(reply, "cost_usd")
    session = _get(reply, "session_id")
    return LLMReply(
        text or "",
        _reason(_get(reply, "finish_reason") or _get(reply, "stop_reason")),
        session_id=session if isinstance(session, str) else None,
        usage=_usage_of(_get(reply, "usage")),
        cost_usd=float(cost) if isinstance(cost, int | float) else None,
        structured_output=structured,
    )


def _reason(value: Any) -> str | None:
    if value is None:
        return None
    return str(getattr(value, "value", value))
