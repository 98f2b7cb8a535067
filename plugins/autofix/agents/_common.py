"""Helpers shared by the format modules: JSON line reading, error wording, stop reasons."""

from __future__ import annotations

import json
import re
from abc import abstractmethod
from typing import Any, ClassVar

from autofix.agents.base import (
    AgentOutcome,
    EventParser,
    FailureKind,
    RunStatus,
)
from autofix.redact import redact

MAX_ERRORS = 20
MAX_ERROR_CHARS = 2000
_MAX_DOC_CHARS = 16 * 1024 * 1024  # a pretty-printed document bigger than this is not an answer

LIMIT_KINDS = frozenset({FailureKind.RATE_LIMIT, FailureKind.USAGE_LIMIT})


class JsonDocReader:
    """Turns stdout lines into JSON values.

    One value per line (JSON lines), plus single documents pretty-printed over many lines
    (Gemini ``json``, a pretty Claude object): those start with a line that is just ``{`` or
    ``[`` and end at a closing bracket in column 0. Lines that are neither are counted.
    """

    def __init__(self) -> None:
        self.non_json_lines = 0
        self.non_json_tail: list[str] = []  # last few, for error wording when nothing else is known
        self._doc: list[str] = []
        self._doc_chars = 0

    def feed(self, line: str) -> list[Any]:
        stripped = line.strip()
        if not stripped:
            return []
        if self._doc:
            if line[:1] in "{[" and stripped not in ("{", "["):
                self._abandon()  # a new top-level value: the open document never closed
            else:
                self._doc.append(line)
                self._doc_chars += len(line)
                if line[:1] in "}]":
                    try:
                        value = json.loads("\n".join(self._doc))
                    except ValueError:
                        return []
                    self._doc, self._doc_chars = [], 0
                    return [value]
                if self._doc_chars > _MAX_DOC_CHARS:
                    self._abandon()
                return []
        if stripped in ("{", "["):
            self._doc, self._doc_chars = [line], len(line)
            return []
        if stripped[0] in "{[":
            try:
                return [json.loads(stripped)]
            except ValueError:
                pass
        self._count_non_json(stripped)
        return []

    def finish(self) -> list[Any]:
        """Flush an open document (a producer may omit the final newline or indent oddly)."""
        if not self._doc:
            return []
        try:
            value = json.loads("\n".join(self._doc))
        except ValueError:
            self._abandon()
            return []
        self._doc, self._doc_chars = [], 0
        return [value]

    def _abandon(self) -> None:
        for line in self._doc:
            self._count_non_json(line.strip())
        self._doc, self._doc_chars = [], 0

    def _count_non_json(self, line: str) -> None:
        self.non_json_lines += 1
        self.non_json_tail.append(line[:500])
        if len(self.non_json_tail) > 10:
            del self.non_json_tail[0]


def output_format_option(agent: str, options: dict[str, Any], allowed: tuple[str, ...]) -> str:
    """``options["output_format"]``, the first allowed one when unset; a clear error otherwise."""
    chosen = str(options.get("output_format") or allowed[0])
    if chosen not in allowed:
        choices = " or ".join(repr(name) for name in allowed)
        raise ValueError(f"{agent} output_format must be {choices}, got {chosen!r}")
    return chosen


def json_docs(text: str) -> list[Any]:
    """Every JSON value found in ``text`` (lines or pretty-printed documents)."""
    reader = JsonDocReader()
    values: list[Any] = []
    for line in text.splitlines():
        values.extend(reader.feed(line))
    values.extend(reader.finish())
    return values


def clean_error(text: object) -> str:
    """Error text as stored in an outcome: redacted and bounded."""
    value = text if isinstance(text, str) else json.dumps(text, default=str)
    value = redact(value.strip())
    if len(value) > MAX_ERROR_CHARS:
        value = value[: MAX_ERROR_CHARS - 1] + "…"
    return value


def add_error(errors: list[str], text: object) -> None:
    value = clean_error(text)
    if value and value not in errors and len(errors) < MAX_ERRORS:
        errors.append(value)


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


def as_int(value: object) -> int:
    if isinstance(value, bool):
        return 0
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        return int(value)
    return 0


def as_float(value: object) -> float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return float(value)
    return None


def as_str(value: object) -> str | None:
    return value if isinstance(value, str) and value else None


def as_dict(value: object) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def no_terminal_failure(
    agent: str, exit_code: int | None, stderr_tail: str, non_json_tail: list[str]
) -> tuple[FailureKind | None, str]:
    """What we can say when the agent printed no terminal event (killed, crashed, bad flags)."""
    kind = None
    if exit_code != 0:
        kind = classify_error_text("\n".join([*non_json_tail, stderr_tail[-4000:]]))
    ended = "no exit code" if exit_code is None else f"exit {exit_code}"
    return kind, f"{agent}: no terminal event in the output ({ended})"


class BaseParser(EventParser):
    """EventParser whose outcome text is redacted on the way out, whatever the format."""

    def finish(self, exit_code: int | None, stderr_tail: str = "") -> AgentOutcome:
        outcome = self._finish(exit_code, stderr_tail)
        if outcome.final_text:
            outcome.final_text = redact(outcome.final_text)
        return outcome

    @abstractmethod
    def _finish(self, exit_code: int | None, stderr_tail: str) -> AgentOutcome: ...


class JsonEventParser(BaseParser):
    """Reads JSON documents from stdout lines and hands each event object to ``_handle``."""

    accepts_arrays: ClassVar[bool] = False  # Claude's ``json --verbose`` prints an array

    def __init__(self) -> None:
        self._reader = JsonDocReader()
        self._events = 0

    def feed(self, line: str) -> None:
        for value in self._reader.feed(line):
            if isinstance(value, dict):
                self._handle(value)
            elif isinstance(value, list) and self.accepts_arrays:
                for item in value:
                    if isinstance(item, dict):
                        self._handle(item)

    @abstractmethod
    def _handle(self, event: dict[str, Any]) -> None: ...
