"""Why a model stopped writing, normalised across providers: ``FinishReason``."""

from __future__ import annotations

from enum import StrEnum


class FinishReason(StrEnum):
    """Why the model stopped writing, normalised across providers."""

    STOP = "stop"
    LENGTH = "length"
    REFUSAL = "refusal"
    MAX_TURNS = "max_turns"
    ERROR = "error"


_LENGTH_STOPS = frozenset(
    {"max_tokens", "length", "max_output_tokens", "model_length", "token_limit"}
)
_REFUSAL_STOPS = frozenset(
    {
        "refusal",
        "content_filter",
        "safety",
        "recitation",
        "prohibited_content",
        "blocklist",
        "blocked",
        "spii",
    }
)
_NORMAL_STOPS = frozenset(
    {"end_turn", "stop", "stop_sequence", "tool_use", "pause_turn", "completed"}
)


def normalise_finish_reason(value: object) -> FinishReason | None:
    """Claude ``stop_reason``, OpenAI ``finish_reason``, Gemini ``finishReason`` → FinishReason."""
    if value is None:
        return None
    text = str(getattr(value, "value", value)).strip().lower()
    if text in _LENGTH_STOPS:
        return FinishReason.LENGTH
    if text in _REFUSAL_STOPS:
        return FinishReason.REFUSAL
    if text in _NORMAL_STOPS:
        return FinishReason.STOP
    try:
        return FinishReason(text)
    except ValueError:
        return None
