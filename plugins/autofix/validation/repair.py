"""Parse the payload, repairing its structure only (json-repair), and record every repair."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import json_repair
import yaml

from autofix import safejson
from autofix.errors import AutofixError, PayloadError
from autofix.validation.diagnose import Repair, diagnose_json, fence_repairs, repairs_from_log
from autofix.validation.extract import Candidate, CandidateSource, PayloadFormat, candidates

Normaliser = Callable[[Any], Any]


@dataclass(frozen=True)
class Payload:
    """The parsed value and how it was obtained."""

    value: Any
    fmt: PayloadFormat  # JSON or YAML
    text: str  # the candidate text that was parsed (before repair)
    repairs: tuple[Repair, ...] = ()
    truncated: bool = False  # the structure had to be closed at the end

    @property
    def changes_meaning(self) -> bool:
        return any(r.changes_meaning for r in self.repairs)


class _DuplicateKeyError(AutofixError, ValueError):
    pass


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


def _parse_strict(candidate: Candidate) -> Payload | None:
    if candidate.fmt == PayloadFormat.YAML:
        try:
            value, duplicates = _load_yaml(candidate.text)
        except yaml.YAMLError:
            return None
        repairs = fence_repairs(candidate)
        repairs += [
            Repair(f"duplicate key {key!r}: the last value was kept", True) for key in duplicates
        ]
        return Payload(value, PayloadFormat.YAML, candidate.text, tuple(repairs))
    try:
        value = _strict_json(candidate.text)
    except (_DuplicateKeyError, ValueError):
        return None
    return Payload(value, PayloadFormat.JSON, candidate.text, tuple(fence_repairs(candidate)))


def _parse_repaired(candidate: Candidate) -> Payload | None:
    if candidate.fmt != PayloadFormat.JSON or not candidate.text.lstrip().startswith(("{", "[")):
        return None
    try:
        value, log = json_repair.repair_json(candidate.text, return_objects=True, logging=True)
    except (ValueError, RecursionError):
        return None
    if not isinstance(value, dict | list) or safejson.depth_exceeds(value):
        return None
    fence = fence_repairs(candidate)
    diagnosed = diagnose_json(candidate.text)
    repairs = fence + diagnosed
    repairs += [r for r in repairs_from_log(log) if r not in repairs]
    if not diagnosed and len(repairs) == len(fence):
        repairs.append(Repair("repaired JSON syntax"))
    truncated = not candidate.closed or any(
        r.description.startswith("closed truncated") for r in repairs
    )
    return Payload(value, PayloadFormat.JSON, candidate.text, tuple(repairs), truncated=truncated)


def _yaml_error(text: str) -> str:
    try:
        _load_yaml(text)
    except yaml.YAMLError as exc:
        return " ".join(str(exc).split())
    return "not a mapping or list"


def parse_payload(
    text: str, fmt: PayloadFormat = PayloadFormat.AUTO, normaliser: Normaliser | None = None
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
    fenced = [c for c in found if c.source == CandidateSource.FENCE]
    loose = [c for c in found if c.source != CandidateSource.FENCE]
    for group in (fenced, loose):
        for parse in (_parse_strict, _parse_repaired):
            payload = next((p for c in group if (p := parse(c)) is not None), None)
            if payload is not None:
                break
        if payload is not None:
            break
    if payload is None:
        if not found:
            wanted = "YAML" if fmt == PayloadFormat.YAML else "JSON object or array"
            raise PayloadError("not_found", f"no {wanted} found in the answer")
        first = found[0]
        if first.fmt == PayloadFormat.YAML:
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
