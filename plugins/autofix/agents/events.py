"""Reading agent event streams: JSON lines or pretty documents, bounded error text, coercion."""

from __future__ import annotations

import json
from abc import abstractmethod
from typing import Any, ClassVar

from autofix.agents.base import AgentOutcome, EventParser
from autofix.redact import redact

MAX_ERRORS = 20
MAX_ERROR_CHARS = 2000
_MAX_DOC_CHARS = 16 * 1024 * 1024  # a pretty-printed document bigger than this is not an answer
_BOM = "\ufeff"


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
        self._seen_first = False

    def feed(self, line: str) -> list[Any]:
        if not self._seen_first:
            self._seen_first = True
            line = line.removeprefix(_BOM)  # a UTF-8 BOM some Windows-built tools put first
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
                    except (ValueError, RecursionError):  # hostile nesting is not an event
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
            except (ValueError, RecursionError):
                pass
        self._count_non_json(stripped)
        return []

    def finish(self) -> list[Any]:
        """Flush an open document (a producer may omit the final newline or indent oddly)."""
        if not self._doc:
            return []
        try:
            value = json.loads("\n".join(self._doc))
        except (ValueError, RecursionError):
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
    try:
        value = text if isinstance(text, str) else json.dumps(text, default=str)
    except (ValueError, RecursionError):  # circular or absurdly deep
        value = type(text).__name__
    value = redact(value.strip())
    if len(value) > MAX_ERROR_CHARS:
        value = value[: MAX_ERROR_CHARS - 1] + "…"
    return value


def add_error(errors: list[str], text: object) -> None:
    value = clean_error(text)
    if value and value not in errors and len(errors) < MAX_ERRORS:
        errors.append(value)


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
                self._dispatch(value)
            elif isinstance(value, list) and self.accepts_arrays:
                for item in value:
                    if isinstance(item, dict):
                        self._dispatch(item)

    def _dispatch(self, event: dict[str, Any]) -> None:
        self._handle(event)
        if self.listener is not None:
            self.listener(event)

    @abstractmethod
    def _handle(self, event: dict[str, Any]) -> None: ...
