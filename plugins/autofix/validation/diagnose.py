"""Name what a repair changed: a read-only scan of the agent's text, and json-repair's own log."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from autofix.validation.extract import Candidate, CandidateSource


@dataclass(frozen=True)
class Repair:
    """One change made to the agent's text before validation.

    ``changes_meaning``: the repair may change what the answer means (content lost to truncation,
    a duplicated key overwritten, an invented value), so callers can warn or refuse it.
    """

    description: str
    changes_meaning: bool = False

    def __str__(self) -> str:
        return f"{self.description} (changes meaning)" if self.changes_meaning else self.description


@dataclass
class _Frame:
    kind: str  # "{" or "["
    path: str
    keys: set[str] = field(default_factory=set)
    expect_key: bool = True
    key: str | None = None
    index: int = 0


def _child(path: str, part: str | int) -> str:
    return f"{path}.{part}" if path else str(part)


# json-repair's own log misses common fixes (trailing commas, single quotes, missing commas,
# duplicate keys), so this scan names what was wrong; it never changes anything.
def diagnose_json(text: str) -> list[Repair]:
    """Name the syntax problems json-repair will fix in ``text``. Read-only, best effort."""
    found: dict[str, Repair] = {}

    def note(description: str, changes_meaning: bool = False) -> None:
        found.setdefault(description, Repair(description, changes_meaning))

    stack: list[_Frame] = []
    need_comma = False
    after_comma = False
    top_done = False
    i = 0
    n = len(text)
    while i < n:
        char = text[i]
        if char.isspace():
            i += 1
            continue
        if top_done and not stack:
            note("dropped text after the JSON value", changes_meaning=True)
            break
        frame = stack[-1] if stack else None
        if text.startswith("//", i) or (char == "#" and frame is not None):
            note("removed comments")
            end = text.find("\n", i)
            i = n if end == -1 else end
            continue
        if text.startswith("/*", i):
            note("removed comments")
            end = text.find("*/", i + 2)
            i = n if end == -1 else end + 2
            continue
        if char in "\"'":
            if char == "'":
                note("replaced single quotes with double quotes")
            j = i + 1
            escaped = False
            while j < n:
                if escaped:
                    escaped = False
                elif text[j] == "\\":
                    escaped = True
                elif text[j] == char:
                    break
                j += 1
            token = text[i + 1 : j]
            if j >= n:
                where = ""
                if frame is not None:
                    inner = frame.key if frame.kind == "{" and not frame.expect_key else frame.index
                    where = _child(frame.path, inner if inner is not None else "")
                note(
                    f"closed truncated string{' at ' + where if where else ''}"
                    " (the text after the cut is missing)",
                    changes_meaning=True,
                )
                i = n
            else:
                i = j + 1
            need_comma = not _value_or_key(frame, token, note, need_comma)
            after_comma = False
            continue
        if char in "{[":
            if need_comma:
                note("inserted missing commas")
            path = ""
            if frame is not None:
                path = _child(
                    frame.path, frame.key if frame.kind == "{" and frame.key else frame.index
                )
            stack.append(_Frame(char, path))
            need_comma = False
            after_comma = False
            i += 1
            continue
        if char in "}]":
            if after_comma:
                note("removed trailing commas")
            if stack:
                closed = stack.pop()
                if (closed.kind == "{") != (char == "}"):
                    note("fixed mismatched brackets")
                if stack:
                    _advance(stack[-1])
                else:
                    top_done = True
            else:
                note("removed extra closing brackets")
            need_comma = True
            after_comma = False
            i += 1
            continue
        if char == ",":
            if after_comma or (frame is not None and not need_comma):
                note("removed extra commas")
            if frame is not None and frame.kind == "{":
                frame.expect_key = True
            need_comma = False
            after_comma = True
            i += 1
            continue
        if char == ":":
            if frame is not None and frame.kind == "{":
                frame.expect_key = False
            need_comma = False
            after_comma = False
            i += 1
            continue
        # A bare word: number, literal, unquoted key or unquoted string.
        j = i
        while j < n and not text[j].isspace() and text[j] not in ",:{}[]\"'":
            j += 1
        word = text[i:j] or text[i]
        i = max(j, i + 1)
        if frame is not None and frame.kind == "{" and frame.expect_key:
            note("quoted unquoted keys")
        elif word in ("True", "False", "None"):
            note("converted Python literals to JSON")
        elif word not in ("true", "false", "null") and not _is_number(word):
            note("quoted unquoted string values")
        need_comma = not _value_or_key(frame, word, note, need_comma)
        after_comma = False
    if stack:
        kinds = "".join("}" if f.kind == "{" else "]" for f in reversed(stack))
        innermost = stack[-1]
        what = "object" if innermost.kind == "{" else "array"
        where = f" {innermost.path}" if innermost.path else ""
        note(
            f"closed truncated {what}{where} (added {kinds!r}; content after the cut is missing)",
            changes_meaning=True,
        )
    return list(found.values())


def _value_or_key(
    frame: _Frame | None, token: str, note: Callable[[str, bool], None], need_comma: bool
) -> bool:
    """Record a scalar token; True when it was an object key."""
    if need_comma:
        note("inserted missing commas", False)
    if frame is None:
        return False
    if frame.kind == "{" and frame.expect_key:
        if token in frame.keys:
            where = _child(frame.path, token)
            note(f"duplicate key {where!r}: the last value was kept", True)
        frame.keys.add(token)
        frame.key = token
        frame.expect_key = False
        return True
    _advance(frame)
    return False


def _advance(frame: _Frame) -> None:
    """A value ended inside ``frame``: the next token is the next item or key."""
    if frame.kind == "[":
        frame.index += 1
    else:
        frame.expect_key = True


def _is_number(word: str) -> bool:
    try:
        float(word)
    except ValueError:
        return False
    return True


# json-repair log lines that mean more than a syntax fix.
_MEANINGFUL_LOG = (
    ("stray }", "filled a missing value with an empty string"),
    ("stray ]", "filled a missing value with an empty string"),
    (
        "invalidate the string and return an empty value",
        "replaced an unreadable string with an empty value",
    ),
    ("more json elements", "merged several JSON values into one list"),
)


def repairs_from_log(log: list[dict[str, str]]) -> list[Repair]:
    repairs: list[Repair] = []
    for entry in log:
        text = entry.get("text", "")
        for needle, description in _MEANINGFUL_LOG:
            if needle in text and all(r.description != description for r in repairs):
                repairs.append(Repair(description, changes_meaning=True))
    return repairs


def fence_repairs(candidate: Candidate) -> list[Repair]:
    repairs: list[Repair] = []
    if candidate.source == CandidateSource.FENCE:
        label = f"```{candidate.lang}" if candidate.lang else "```"
        repairs.append(Repair(f"removed markdown fence ({label})"))
        if not candidate.closed:
            repairs.append(Repair("the markdown fence was never closed (answer cut off?)"))
    elif candidate.source == CandidateSource.SPAN and candidate.surrounded:
        repairs.append(Repair("removed text around the JSON"))
    return repairs
