"""Parse the payload, repairing its structure only, and record every repair.

The repair itself is json-repair's. Its own log misses common fixes (trailing commas,
single quotes, missing commas, duplicate keys), so a small read-only scan of the input
names what was wrong; the scan never changes anything. Repairs that may change what the
answer means (content lost to truncation, a duplicated key overwritten, an invented
value) are marked ``changes_meaning`` so callers can warn or refuse them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

import json_repair
import yaml

from autofix import safejson
from autofix.errors import AutofixError, PayloadError
from autofix.validation.extract import Candidate, PayloadFormat, candidates

Normaliser = Callable[[Any], Any]


@dataclass(frozen=True)
class Repair:
    """One change made to the agent's text before validation."""

    description: str
    changes_meaning: bool = False

    def __str__(self) -> str:
        return f"{self.description} (changes meaning)" if self.changes_meaning else self.description


@dataclass(frozen=True)
class Payload:
    """The parsed value and how it was obtained."""

    value: Any
    fmt: Literal["json", "yaml"]
    text: str  # the candidate text that was parsed (before repair)
    repairs: tuple[Repair, ...] = ()
    truncated: bool = False  # the structure had to be closed at the end

    @property
    def changes_meaning(self) -> bool:
        return any(r.changes_meaning for r in self.repairs)


class _DuplicateKeyError(AutofixError, ValueError):
    pass


# ---------------------------------------------------------------------------- strict parsing


def _pairs_no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise _DuplicateKeyError(key)
        result[key] = value
    return result


def _strict_json(text: str) -> Any:
    """json.loads that refuses duplicate keys instead of silently keeping the last one."""
    return safejson.loads(text, object_pairs_hook=_pairs_no_duplicates)


class _StrictYamlLoader(yaml.SafeLoader):
    """SafeLoader that records duplicate mapping keys (PyYAML silently keeps the last)."""

    duplicates: list[str]


def _construct_mapping(
    loader: _StrictYamlLoader, node: yaml.MappingNode, deep: bool = False
) -> dict[Any, Any]:
    seen: set[Any] = set()
    for key_node, _ in node.value:
        key = loader.construct_object(key_node, deep=deep)
        try:
            if key in seen:
                loader.duplicates.append(str(key))
            seen.add(key)
        except TypeError:  # unhashable key: let the base constructor raise its own error
            pass
    return loader.construct_mapping(node, deep=deep)


_StrictYamlLoader.add_constructor(
    yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping
)


def _load_yaml(text: str) -> tuple[Any, list[str]]:
    loader = _StrictYamlLoader(text)
    loader.duplicates = []
    try:
        value = loader.get_single_data()
    except RecursionError:  # PyYAML recurses per nesting level
        raise yaml.YAMLError(f"nested deeper than {safejson.MAX_DEPTH} levels") from None
    finally:
        loader.dispose()
    if safejson.depth_exceeds(value):
        raise yaml.YAMLError(f"nested deeper than {safejson.MAX_DEPTH} levels")
    return value, loader.duplicates


# ---------------------------------------------------------------------------- diagnosis scan


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


def _next_sig(text: str, index: int) -> str:
    while index < len(text) and text[index].isspace():
        index += 1
    return text[index] if index < len(text) else ""


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


def _from_log(log: list[dict[str, str]]) -> list[Repair]:
    repairs: list[Repair] = []
    for entry in log:
        text = entry.get("text", "")
        for needle, description in _MEANINGFUL_LOG:
            if needle in text and all(r.description != description for r in repairs):
                repairs.append(Repair(description, changes_meaning=True))
    return repairs


# ---------------------------------------------------------------------------- public


def _fence_repairs(candidate: Candidate) -> list[Repair]:
    repairs: list[Repair] = []
    if candidate.source == "fence":
        label = f"```{candidate.lang}" if candidate.lang else "```"
        repairs.append(Repair(f"removed markdown fence ({label})"))
        if not candidate.closed:
            repairs.append(Repair("the markdown fence was never closed (answer cut off?)"))
    elif candidate.source == "span" and candidate.surrounded:
        repairs.append(Repair("removed text around the JSON"))
    return repairs


def _parse_strict(candidate: Candidate) -> Payload | None:
    if candidate.fmt == "yaml":
        try:
            value, duplicates = _load_yaml(candidate.text)
        except yaml.YAMLError:
            return None
        repairs = _fence_repairs(candidate)
        repairs += [
            Repair(f"duplicate key {key!r}: the last value was kept", True) for key in duplicates
        ]
        return Payload(value, "yaml", candidate.text, tuple(repairs))
    try:
        value = _strict_json(candidate.text)
    except (_DuplicateKeyError, ValueError):
        return None
    return Payload(value, "json", candidate.text, tuple(_fence_repairs(candidate)))


def _parse_repaired(candidate: Candidate) -> Payload | None:
    if candidate.fmt != "json" or not candidate.text.lstrip().startswith(("{", "[")):
        return None
    try:
        value, log = json_repair.repair_json(candidate.text, return_objects=True, logging=True)
    except (ValueError, RecursionError):
        return None
    if not isinstance(value, dict | list) or safejson.depth_exceeds(value):
        return None
    repairs = _fence_repairs(candidate)
    diagnosed = diagnose_json(candidate.text)
    repairs += diagnosed
    repairs += [r for r in _from_log(log) if r not in repairs]
    if not diagnosed and len(repairs) == len(_fence_repairs(candidate)):
        repairs.append(Repair("repaired JSON syntax"))
    truncated = not candidate.closed or any(
        r.description.startswith("closed truncated") for r in repairs
    )
    return Payload(value, "json", candidate.text, tuple(repairs), truncated=truncated)


def _yaml_error(text: str) -> str:
    try:
        _load_yaml(text)
    except yaml.YAMLError as exc:
        return " ".join(str(exc).split())
    return "not a mapping or list"


def parse_payload(
    text: str, fmt: PayloadFormat = "auto", normaliser: Normaliser | None = None
) -> Payload:
    """Find, parse and (structurally) repair the payload in ``text``.

    Fenced blocks first, then bare spans; within each, every candidate strictly before
    any with json-repair (so a valid block wins over a broken one). ``normaliser`` gets the parsed value and returns the value to
    validate; it runs last and its change is recorded.
    """
    if not text or not text.strip():
        raise PayloadError("empty", "the answer was empty")
    found = list(candidates(text, fmt))
    payload: Payload | None = None
    # Fenced blocks are explicit, so a fence needing repair beats a bare span elsewhere.
    fenced = [c for c in found if c.source == "fence"]
    loose = [c for c in found if c.source != "fence"]
    for group in (fenced, loose):
        for parse in (_parse_strict, _parse_repaired):
            payload = next((p for c in group if (p := parse(c)) is not None), None)
            if payload is not None:
                break
        if payload is not None:
            break
    if payload is None:
        if not found:
            wanted = "YAML" if fmt == "yaml" else "JSON object or array"
            raise PayloadError("not_found", f"no {wanted} found in the answer")
        first = found[0]
        if first.fmt == "yaml":
            raise PayloadError(
                "unparseable", f"the YAML could not be parsed: {_yaml_error(first.text)}"
            )
        raise PayloadError(
            "unparseable",
            "the JSON could not be parsed or repaired",
            truncated=not first.closed,
        )
    if normaliser is not None:
        normalised = normaliser(payload.value)
        if normalised != payload.value:
            payload = Payload(
                normalised,
                payload.fmt,
                payload.text,
                (*payload.repairs, Repair("applied the configured normaliser")),
                payload.truncated,
            )
    return payload
