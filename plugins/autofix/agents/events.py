"""Reading agent event streams: JSON lines or pretty documents, bounded error text, coercion.

Any bytes may arrive here. Nothing in this layer raises on them: JSON nested too deep is
counted as unreadable, a format's handler that trips over an event of the wrong shape has that
event counted as unreadable, and a format whose verdict code fails returns a fail-safe outcome.
The counts reach ``ParseResult.warnings``.
"""

from __future__ import annotations

import json
import math
import re
from abc import abstractmethod
from collections import deque
from collections.abc import Callable
from typing import Any, ClassVar

from autofix import safejson
from autofix.agents.base import AgentOutcome, EventParser
from autofix.agents.failures import (
    kind_from_exit_code,
    kind_from_message,
    says_no_retry,
    status_for_kind,
)
from autofix.redact import redact
from autofix.result import FailureKind, FinishReason, RunStatus

MAX_ERRORS = 20
MAX_ERROR_CHARS = 2000
_MAX_DOC_CHARS = 16 * 1024 * 1024  # a pretty-printed document bigger than this is not an answer
# Numbers past this are not token counts or costs: clamped (also keeps float() from overflowing).
MAX_NUMBER = 2**53
_KEPT_REASONS = 3


class Unreadable:
    """Events that could not be read: a count and the first few reasons."""

    def __init__(self) -> None:
        self.count = 0
        self.reasons: list[str] = []

    def add(self, reason: str) -> None:
        self.count += 1
        if len(self.reasons) < _KEPT_REASONS and reason not in self.reasons:
            self.reasons.append(reason)

    def add_error(self, exc: BaseException) -> None:
        self.add(f"{type(exc).__name__}: {str(exc)[:200]}")

    def describe(self) -> str:
        return f"{self.count} unreadable event(s) skipped ({'; '.join(self.reasons)})"


_BOM = "\ufeff"
_STRUCTURE = re.compile(r'["\\\[\]{}]')  # what changes a JSON text's nesting or string state


def _bracket_balance(line: str) -> int:
    """Opening minus closing brackets outside strings (a JSON string never spans lines)."""
    balance = 0
    in_string = False
    escaped_at = -1  # the index of the character a backslash escapes
    for found in _STRUCTURE.finditer(line):
        char, at = found.group(), found.start()
        if at == escaped_at:
            continue
        if in_string:
            if char == "\\":
                escaped_at = at + 1
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "{[":
            balance += 1
        elif char in "}]":
            balance -= 1
    return balance


class JsonDocReader:
    """Turns stdout lines into JSON values.

    One value per line (JSON lines), plus single documents pretty-printed over many lines
    (Gemini ``json``, a pretty Claude object): those start with a line that is just ``{`` or
    ``[`` and end at a closing bracket in column 0. Lines that are neither are counted.
    """

    def __init__(self) -> None:
        self.non_json_lines = 0
        self.non_json_tail: list[str] = []  # last few, for error wording when nothing else is known
        self.unreadable = Unreadable()
        self._doc: list[str] = []
        self._doc_chars = 0
        # The open document's bracket depth; it is parsed only when a closing line brings that
        # to 0 (parsing at every closing line was quadratic), and once that failed it never is.
        self._depth = 0
        self._hopeless = False
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
                self._depth += _bracket_balance(line)
                if line[:1] in "}]" and self._depth == 0 and not self._hopeless:
                    values = self._load("\n".join(self._doc), count_deep=False)
                    if not values:
                        # Balanced and still not JSON (or too deep): no later line can mend
                        # it; counted when abandoned.
                        self._hopeless = True
                        return []
                    self._doc, self._doc_chars = [], 0
                    return values
                if self._doc_chars > _MAX_DOC_CHARS:
                    self._abandon()
                return []
        if stripped in ("{", "["):
            self._doc, self._doc_chars = [line], len(line)
            self._depth, self._hopeless = 1, False
            return []
        if stripped[0] in "{[":
            values = self._load(stripped)
            if values is not None:
                return values
        self._count_non_json(stripped)
        return []

    def finish(self) -> list[Any]:
        """Flush an open document (a producer may omit the final newline or indent oddly)."""
        if not self._doc:
            return []
        values = self._load("\n".join(self._doc))
        if not values:
            self._abandon()
            return []
        self._doc, self._doc_chars = [], 0
        return values

    def _load(self, text: str, count_deep: bool = True) -> list[Any] | None:
        """[value]; [] for JSON nested too deep (counted as unreadable); None for not JSON."""
        try:
            return [safejson.loads(text)]
        except safejson.TooDeepError as exc:
            if count_deep:
                self.unreadable.add(str(exc))
            return []
        except ValueError:
            return None

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
    """A count: ints and finite floats, clamped to ±MAX_NUMBER; anything else is 0."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return 0
    if isinstance(value, float) and not math.isfinite(value):
        return 0
    return max(-MAX_NUMBER, min(MAX_NUMBER, int(value)))


def as_float(value: object) -> float | None:
    """A finite number (a cost), clamped to ±MAX_NUMBER; None for anything else."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    if isinstance(value, int):
        return float(max(-MAX_NUMBER, min(MAX_NUMBER, value)))
    return value if math.isfinite(value) else None


def as_str(value: object) -> str | None:
    return value if isinstance(value, str) and value else None


def as_dict(value: object) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def as_list(value: object) -> list[Any]:
    return value if isinstance(value, list) else []


class BaseParser(EventParser):
    """EventParser whose outcome text is redacted on the way out, whatever the format, and
    whose verdict never raises: a format's code that fails on odd input fails safe."""

    agent_name: ClassVar[str] = "agent"

    def finish(self, exit_code: int | None, stderr_tail: str = "") -> AgentOutcome:
        unreadable = self._unreadable()
        try:
            self._flush()
            outcome = self._finish(exit_code, stderr_tail)
        except Exception as exc:  # odd input must fail safe, never crash the task
            unreadable.add_error(exc)
            outcome = AgentOutcome(failure_kind=FailureKind.UNKNOWN)
            add_error(
                outcome.errors,
                f"{self.agent_name}: the output could not be read ({type(exc).__name__}); "
                "failing safe",
            )
        if (
            outcome.failure_kind is not None
            and outcome.retryable is None
            and any(says_no_retry(error) for error in outcome.errors)
        ):
            outcome.retryable = False
        if outcome.final_text:
            outcome.final_text = redact(outcome.final_text)
        if unreadable.count:
            outcome.unreadable_events = unreadable.count
            outcome.notes.append(unreadable.describe())
        return outcome

    def _unreadable(self) -> Unreadable:
        """Where this parser counts unreadable events (a plain text parser has none)."""
        return Unreadable()

    def _flush(self) -> None:
        """Hand over what is still buffered before the verdict."""

    @abstractmethod
    def _finish(self, exit_code: int | None, stderr_tail: str) -> AgentOutcome: ...


# A text answer is kept up to this: the last lines, the last characters.
TEXT_ANSWER_LINES = 200
TEXT_ANSWER_CHARS = 64_000


class TextAnswer:
    """The last lines of a text output, bounded: an agent's answer in its text mode."""

    def __init__(self) -> None:
        self.lines: deque[str] = deque(maxlen=TEXT_ANSWER_LINES)
        self.count = 0

    def add(self, line: str) -> None:
        if line.strip():
            self.count += 1  # as the JSON reader counts lines: blank ones are not output
        self.lines.append(line[:TEXT_ANSWER_CHARS])

    def joined(self) -> str:
        """The kept lines as they came (``plain``'s final text)."""
        return "\n".join(self.lines)[-TEXT_ANSWER_CHARS:]

    def text(self) -> str:
        text = "\n".join(self.lines).strip()
        return text[-TEXT_ANSWER_CHARS:]


def text_outcome(
    agent: str,
    answer: TextAnswer,
    exit_code: int | None,
    stderr_tail: str,
    kind_of: Callable[[str], FailureKind | None] | None = None,
    silent_failure: FailureKind | None = None,
) -> AgentOutcome:
    """A CLI run in its text output mode (no event at all): stdout is the answer and the CLI's
    exit code says how it ended (its source exits non-zero on every failure it reports).
    Exit 0 with no answer is an empty answer; a failure's kind comes from the CLI's error
    wording on either stream (``kind_of``, else the shared tie-breakers), else, when the CLI
    failed before printing anything, ``silent_failure`` (Claude's start-up refusals)."""
    text = answer.text()
    outcome = AgentOutcome(text_mode=True, non_json_lines=answer.count)
    if exit_code is None:
        add_error(outcome.errors, f"{agent}: the text output ended without an exit code")
        return outcome
    outcome.terminal_event = f"text/exit {exit_code}"
    if exit_code == 0:
        outcome.run_status = RunStatus.COMPLETED
        outcome.finish_reason = FinishReason.STOP
        if text:
            outcome.final_text = text
        else:
            outcome.failure_kind = FailureKind.EMPTY_ANSWER
            add_error(outcome.errors, f"{agent} exited 0 without any answer (text output)")
        return outcome
    wording = "\n".join([*list(answer.lines)[-10:], stderr_tail[-4000:]])
    kind = kind_from_exit_code(exit_code) or (kind_of or kind_from_message)(wording)
    if kind is None and not text:
        kind = silent_failure
    outcome.run_status = status_for_kind(kind)
    outcome.finish_reason = FinishReason.ERROR
    outcome.failure_kind = kind
    add_error(outcome.errors, f"{agent} exited {exit_code} (text output)")
    if text:
        add_error(outcome.errors, text.splitlines()[-1])
    return outcome


class JsonEventParser(BaseParser):
    """Reads JSON documents from stdout lines and hands each event object to ``_handle``.

    An event that ``_handle`` cannot read (a field of the wrong type) is counted and skipped.
    Until the first event, the lines are also kept as text: a CLI in its text output mode
    prints no event at all (``text_answer``).
    """

    accepts_arrays: ClassVar[bool] = False  # Claude's ``json --verbose`` prints an array

    def __init__(self) -> None:
        self._reader = JsonDocReader()
        self._events = 0
        self.text_answer = TextAnswer()

    def feed(self, line: str) -> None:
        if self._events == 0:
            self.text_answer.add(line)
        self._take(self._reader.feed(line))

    @property
    def text_mode(self) -> bool:
        """The CLI printed text: asked for (``text_output``), or, when nobody knows, no event
        was read nor anything that looked like one. A run asked for events that printed none
        is not text: it fails safe."""
        if self.text_output is False:
            return False
        return self._events == 0 and self._reader.unreadable.count == 0

    def _flush(self) -> None:
        self._take(self._reader.finish())

    def _unreadable(self) -> Unreadable:
        return self._reader.unreadable

    def is_event(self, document: dict[str, Any]) -> bool:
        """Whether a JSON document on stdout is one of this CLI's events; one that is not (an
        answer printed as JSON in the text mode) stays text."""
        return True

    def _take(self, values: list[Any]) -> None:
        for value in values:
            if isinstance(value, dict) and self.is_event(value):
                self._handle_safely(value)
            elif isinstance(value, list) and self.accepts_arrays:
                for item in value:
                    if isinstance(item, dict):
                        self._handle_safely(item)

    def _handle_safely(self, event: dict[str, Any]) -> None:
        try:
            self._handle(event)
        except Exception as exc:  # an event of an unexpected shape: counted, never raised
            self._reader.unreadable.add_error(exc)
            return
        if self.listener is not None:
            self.listener(event)

    @abstractmethod
    def _handle(self, event: dict[str, Any]) -> None: ...
