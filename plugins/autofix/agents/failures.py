"""Failure kinds from what an agent reports: HTTP status codes first, then its error wording."""

from __future__ import annotations

import re

from autofix.result import FailureKind, RunStatus

LIMIT_KINDS = frozenset({FailureKind.RATE_LIMIT, FailureKind.USAGE_LIMIT})
_STATUS_IN_TEXT = re.compile(
    r"(?<![\d.])(400|401|402|403|404|408|413|422|429|500|502|503|504|529)(?![\d.])"
)

_USAGE_WORDS = (
    "usage limit",
    "you've hit your limit",
    "you have hit your limit",
    "you've hit your usage limit",
    "daily quota",
    "exhausted your",
    "limit reached|",  # Claude's "Claude AI usage limit reached|<epoch>"
    "credits exhausted",
)
_RATE_WORDS = (
    "rate limit",
    "rate_limit",
    "ratelimit",
    "too many requests",
    "resource has been exhausted",
    "resource_exhausted",
    "quota exceeded",
)
_AUTH_WORDS = (
    "unauthorized",
    "invalid api key",
    "invalid x-api-key",
    "authentication",
    "not authenticated",
    "please run /login",
    "re-authenticate",
    "permission_denied",
    "forbidden",
    "oauth token",
    "login required",
)
_SERVER_WORDS = (
    "overloaded",
    "internal server error",
    "service unavailable",
    "bad gateway",
    "gateway timeout",
    "server_error",
)
_CONNECTION_WORDS = (
    "connection refused",
    "connection reset",
    "econnreset",
    "econnrefused",
    "enotfound",
    "network error",
    "getaddrinfo",
    "stream disconnected",
)
_BUDGET_WORDS = (
    "credit balance is too low",
    "budget",
    "billing",
    "insufficient_quota",
    "exceeded your current quota",
)
_INVALID_WORDS = ("invalid_request", "bad request", "invalid request", "prompt is too long")


def kind_from_status(status: object) -> FailureKind | None:
    """Map an HTTP status (as reported by an agent) to a failure kind."""
    try:
        code = int(status)  # type: ignore[call-overload]
    except (TypeError, ValueError):
        return None
    if code == 429:
        return FailureKind.RATE_LIMIT
    if code in (401, 403):
        return FailureKind.AUTH
    if code == 402:
        return FailureKind.BUDGET
    if code == 408:
        return FailureKind.TIMEOUT
    if 400 <= code < 500:
        return FailureKind.INVALID_REQUEST
    if code >= 500:
        return FailureKind.SERVER_ERROR
    return None


def classify_error_text(text: str) -> FailureKind | None:
    """The failure kind an agent's own error wording points to, or None."""
    lowered = text.lower()
    if not lowered.strip():
        return None
    if any(word in lowered for word in _USAGE_WORDS):
        return FailureKind.USAGE_LIMIT
    if any(word in lowered for word in _BUDGET_WORDS):  # before rate: OpenAI answers 429 for both
        return FailureKind.BUDGET
    if any(word in lowered for word in _RATE_WORDS):
        return FailureKind.RATE_LIMIT
    match = _STATUS_IN_TEXT.search(lowered)
    if match:
        return kind_from_status(match.group(1))
    if any(word in lowered for word in _AUTH_WORDS):
        return FailureKind.AUTH
    if any(word in lowered for word in _SERVER_WORDS):
        return FailureKind.SERVER_ERROR
    if any(word in lowered for word in _CONNECTION_WORDS):
        return FailureKind.CONNECTION
    if "timed out" in lowered or "timeout" in lowered:
        return FailureKind.TIMEOUT
    if any(word in lowered for word in _INVALID_WORDS):
        return FailureKind.INVALID_REQUEST
    return None


def status_for_kind(kind: FailureKind | None) -> RunStatus:
    """A failed run stopped by a rate or usage limit is reported as limit_reached."""
    return RunStatus.LIMIT_REACHED if kind in LIMIT_KINDS else RunStatus.FAILED


def no_terminal_failure(
    agent: str, exit_code: int | None, stderr_tail: str, non_json_tail: list[str]
) -> tuple[FailureKind | None, str]:
    """What we can say when the agent printed no terminal event (killed, crashed, bad flags)."""
    kind = None
    if exit_code != 0:
        kind = classify_error_text("\n".join([*non_json_tail, stderr_tail[-4000:]]))
    ended = "no exit code" if exit_code is None else f"exit {exit_code}"
    return kind, f"{agent}: no terminal event in the output ({ended})"
