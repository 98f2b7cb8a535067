"""The schema a constrained attempt decodes with: cross-field rules folded in, or a re-decode.

- ``rules_schema``: the output schema with every cross-field rule the schema can say
  (``CrossFieldRule.variants``) as ``anyOf`` branches of the root object, so that grammar
  decoding cannot break them;
- ``targeted_schema``: for the ``targeted`` retry. The fields of the last answer that are
  valid are kept as ``const`` (the grammar writes them back verbatim, so the model decodes the
  rest conditioned on them); the fields named by the errors' paths, and those a broken rule
  ``solve``s for, come last and are decoded again under their own schema narrowed by the
  rule (an ordering's minimum, a total's remainder).

Both return None when they have nothing to add; the caller then sends the output schema.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from pydantic import BaseModel

from autofix.errors import AutofixError
from autofix.result import ErrorCategory, FieldError
from autofix.validation.cross_field import (
    PATTERN,
    PRESENT,
    CrossFieldRule,
    Fragment,
    Variant,
    admits,
    cross_field_rules,
    holds,
    numeric_range,
)
from autofix.validation.outcome import ValidationOutcome

MAX_BRANCHES = 32  # a rule whose branches would pass this is left to the validator
PATTERN_LEAD = 16  # characters a decoded string may hold before a rule's pattern matches
_TOP_FIELD = re.compile(r"^([^.\[\]]+)")
# How a bound a rule adds meets the schema's own: the tighter one wins.
_TIGHTER = {
    "minimum": max,
    "exclusiveMinimum": max,
    "minItems": max,
    "minLength": max,
    "maximum": min,
    "exclusiveMaximum": min,
    "maxItems": min,
    "maxLength": min,
}


_NULL = {"type": "null"}


class _Contradiction(AutofixError):
    """A branch no value can satisfy (dropped; never leaves this module)."""


def _without_null(prop: dict[str, Any]) -> dict[str, Any]:
    branches = prop.get("anyOf")
    if not isinstance(branches, list):
        return prop
    kept = [b for b in branches if b.get("type") != "null"]
    if not kept:
        raise _Contradiction
    rest = {k: v for k, v in prop.items() if k not in ("anyOf", "default")}
    return {**rest, **kept[0]} if len(kept) == 1 else {**rest, "anyOf": kept}


def _narrow(prop: dict[str, Any], frag: Fragment) -> dict[str, Any]:
    if "anyOf" in prop:
        branches = []
        for branch in prop["anyOf"]:
            try:
                branches.append(_narrow(branch, frag))
            except _Contradiction:
                continue
        if not branches:
            raise _Contradiction
        return {**prop, "anyOf": branches}
    out = dict(prop)
    for key, pick in _TIGHTER.items():
        if key in frag:
            out[key] = pick(out[key], frag[key]) if key in out else frag[key]
    if out.get("type") in ("integer", "number") and numeric_range(out["type"], out.items()) is None:
        raise _Contradiction  # no number lies within the bounds (an end hour after 23)
    return out


def constrain(prop: Mapping[str, Any] | None, frag: Fragment) -> dict[str, Any] | None:
    """A property's schema narrowed by ``frag`` (``prop`` None: a property left out, which
    stays out)."""
    if prop is None:  # left out already
        if frag.get(PRESENT) is True or holds(None, frag) is False:
            raise _Contradiction
        return None
    if "const" in prop or prop == _NULL:
        if not holds(prop.get("const"), frag):
            raise _Contradiction
        return dict(prop)
    if frag.get(PRESENT) is False:
        return dict(_NULL)  # absent or null: the key may still be written, with null
    out = copy.deepcopy(dict(prop))
    if not holds(None, frag):
        out = _without_null(out)
    if "const" in frag:
        allowed = out.get("enum")
        if allowed is not None and frag["const"] not in allowed:
            raise _Contradiction
        if not admits(out, frag):
            raise _Contradiction
        return {"const": frag["const"]}
    if "enum" in frag:
        values = [v for v in frag["enum"] if "enum" not in out or v in out["enum"]]
        if not values:
            raise _Contradiction
        return {"enum": values}
    if PATTERN in frag and PATTERN not in out:
        # JSON Schema's pattern is a search; the grammar converter reads anchored ones only.
        # The match may start a few characters in, no further: an unbounded lead let a small
        # model wander until its token limit before writing it (every such value is valid).
        out[PATTERN] = f"^.{{0,{PATTERN_LEAD}}}({frag[PATTERN]}).*$"
    return _narrow(out, frag)


def _constrained(
    prop: Mapping[str, Any] | None, frags: Sequence[Fragment]
) -> dict[str, Any] | None:
    """``constrain`` by every fragment in turn."""
    out = dict(prop) if prop is not None else None
    for frag in frags:
        out = constrain(out, frag)
    return out


def _apply(base: Mapping[str, Any], branch: Mapping[str, list[Fragment]]) -> dict[str, Any]:
    properties: dict[str, Any] = dict(base.get("properties", {}))
    required = list(base.get("required", []))
    for name, frags in branch.items():
        prop = _constrained(properties.get(name), frags)
        if prop is None:
            properties.pop(name, None)
            required = [r for r in required if r != name]
            continue
        properties[name] = prop
        if any(f.get(PRESENT) or not holds(None, f) for f in frags) and name not in required:
            required.append(name)
    obj = {k: v for k, v in base.items() if k not in ("properties", "required", "$defs")}
    return {**obj, "properties": properties, "required": required}


def _branches(
    properties: Mapping[str, Any], rules: Sequence[CrossFieldRule]
) -> list[dict[str, list[Fragment]]] | None:
    branches: list[dict[str, list[Fragment]]] = [{}]
    folded = False
    for rule in rules:
        variants = rule.variants(properties)
        if not variants:
            continue
        # Contradictory branches go at once: rules on one field (a When per enum value) then
        # grow the branches by one each, not twofold.
        grown = [
            joined
            for b in branches
            for v in variants
            if _consistent(joined := _join(b, v), properties)
        ]
        if len(grown) > MAX_BRANCHES:
            continue
        branches, folded = grown, True
    return branches if folded else None


def _consistent(branch: Mapping[str, list[Fragment]], properties: Mapping[str, Any]) -> bool:
    try:
        for name, frags in branch.items():
            _constrained(properties.get(name), frags)
    except _Contradiction:
        return False
    return True


def _join(branch: Mapping[str, list[Fragment]], variant: Variant) -> dict[str, list[Fragment]]:
    out = {name: list(frags) for name, frags in branch.items()}
    for name, frag in variant.items():
        out.setdefault(name, []).append(frag)
    return out


def _fold(
    base: dict[str, Any], rules: Sequence[CrossFieldRule], properties: Mapping[str, Any]
) -> dict[str, Any] | None:
    """``base`` as anyOf branches, one per combination of the rules' variants (``properties``:
    the output schema's own, which say what a rule's condition leaves out)."""
    branches = _branches(properties, rules)
    if branches is None:
        return None
    objects = []
    for branch in branches:
        try:
            objects.append(_apply(base, branch))
        except _Contradiction:
            continue
    if not objects:
        return None
    defs = {"$defs": base["$defs"]} if "$defs" in base else {}
    return objects[0] | defs if len(objects) == 1 else {"anyOf": objects, **defs}


def rules_schema(
    schema: Mapping[str, Any], rules: Sequence[CrossFieldRule]
) -> dict[str, Any] | None:
    """The output schema with the rules it can say folded in; None when none can be."""
    if not rules or "properties" not in schema:
        return None
    base = copy.deepcopy(dict(schema))
    return _fold(base, rules, base["properties"])


def top_field(path: str) -> str | None:
    found = _TOP_FIELD.match(path)
    return found.group(1) if found else None


def named_fields(message: str, properties: Mapping[str, Any]) -> list[str]:
    """The properties a message names as whole words (``test_command must run pytest``)."""
    return [p for p in properties if re.search(rf"(?<![\w.]){re.escape(p)}(?![\w])", message)]


def redecode_targets(
    data: Mapping[str, Any],
    errors: Sequence[FieldError],
    rules: Sequence[CrossFieldRule],
    properties: Mapping[str, Any],
) -> Variant:
    """The fields to decode again: those named by the errors' paths, and those the broken
    rules solve for, each with what the rule adds ({}: its own schema)."""
    broken = [rule for rule in rules if rule.violation(data) is not None]
    ruled = {name for rule in broken for name in rule.fields}
    targets: Variant = {}
    for error in errors:
        name = top_field(error.path)
        if error.category is ErrorCategory.SEMANTIC_ERROR and name not in properties:
            # a rule that reports no path is addressed to the fields its message names
            for named in named_fields(error.message, properties):
                targets.setdefault(named, {})
            continue
        if name is None or name not in properties:
            continue
        if error.category is ErrorCategory.SEMANTIC_ERROR and name in ruled:
            continue  # a broken rule's own error: its solve says which field and how
        targets.setdefault(name, {})
    for rule in broken:
        solved = rule.solve(data, properties)
        if any(name in targets for name in set(rule.fields) - set(solved)):
            # a field it is solved from is decoded again: the rule's branches hold it instead
            continue
        for name, frag in solved.items():
            targets[name] = {**targets.get(name, {}), **frag}
    return targets


def targeted_schema(
    schema: Mapping[str, Any],
    data: Any,
    errors: Sequence[FieldError],
    rules: Sequence[CrossFieldRule] = (),
) -> dict[str, Any] | None:
    """The valid fields of ``data`` kept verbatim (``const``), the failing ones decoded again
    after them; None when nothing can be kept (no object, or every field fails)."""
    properties = schema.get("properties")
    if not isinstance(data, Mapping) or not isinstance(properties, Mapping):
        return None
    targets = redecode_targets(data, errors, rules, properties)
    kept = [n for n in properties if n in data and n not in targets]
    if not targets or not kept:
        return None
    ordered: dict[str, Any] = {n: {"const": data[n]} for n in kept}
    for name, frag in targets.items():
        try:
            prop = constrain(properties[name], frag)
        except _Contradiction:
            prop = dict(properties[name])  # the rule cannot be held here: decode it freely
        if prop is not None:
            ordered[name] = prop
    base = {k: v for k, v in schema.items() if k not in ("properties", "required")}
    base |= {"properties": ordered, "required": list(ordered)}
    return _fold(base, rules, properties) or base


@dataclass(frozen=True)
class DecodingSchemas:
    """What a constrained attempt decodes with: the output schema, its cross-field rules
    folded in (``full``), or the targeted re-decode of a failed answer (``targeted``)."""

    model: type[BaseModel]
    rules: tuple[CrossFieldRule, ...] = ()

    @classmethod
    def of(cls, model: type[BaseModel], validators: Sequence[Any] = ()) -> DecodingSchemas:
        return cls(model, cross_field_rules(validators))

    @cached_property
    def schema(self) -> dict[str, Any]:
        # Built on first use: most runs never send a schema, or have no rules to fold in.
        return self.model.model_json_schema()

    @cached_property
    def full(self) -> dict[str, Any] | None:
        """The output schema with its rules folded in; None: send the output schema as is."""
        return rules_schema(self.schema, self.rules) if self.rules else None

    def targeted(self, outcome: ValidationOutcome) -> dict[str, Any] | None:
        return targeted_schema(self.schema, outcome.data, outcome.errors, self.rules)
