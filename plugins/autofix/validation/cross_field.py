"""Cross-field rules said as data, so that decoding can be constrained by them, not only checked.

A rule is a semantic validator (``OutputValidator(..., semantic_validators=[rule])``) that also
knows two things a plain function cannot say:

- ``variants(properties)``: the rule as alternative shapes of the object (JSON Schema
  ``anyOf`` branches), when the schema can say it: a conditional requirement on an enum, a
  boolean or a numeric bound; mutually exclusive fields. ``decoding.rules_schema`` folds them
  into the grammar, so a constrained first attempt cannot break them;
- ``solve(data)``: for an answer that breaks it, which fields to decode again and what each
  must then satisfy given the rest (an ordering: the later field's minimum is the earlier
  field's value; a total: the last field's value is what the others leave). The ``targeted``
  retry keeps every other field and decodes only these, under a grammar that holds them to it.

Fields are the answer's top-level JSON properties. A fragment (``When``'s condition and
consequence) is a small JSON Schema subset: ``const``, ``enum``, ``minimum``, ``maximum``,
``exclusiveMinimum``, ``exclusiveMaximum``, ``minItems``, ``maxItems``, ``minLength``,
``maxLength``, ``pattern`` (the string contains a match, as in JSON Schema; run with a timeout)
and ``present`` (true: given and not null; false: absent or null). A bare value
means ``{"const": value}``.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import regex
from pydantic import BaseModel

from autofix.errors import AutofixError
from autofix.result import ErrorCategory, FieldError

Fragment = dict[str, Any]
Properties = Mapping[str, Mapping[str, Any]]
# A field's own schema (from the object's properties) merged with what a rule adds to it.
Variant = dict[str, Fragment]

PRESENT = "present"
_NUMERIC = ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum")
_SIZES = ("minItems", "maxItems", "minLength", "maxLength")
PATTERN = "pattern"  # a regex the string contains a match of (JSON Schema's "pattern")
KEYWORDS = frozenset({"const", "enum", PRESENT, PATTERN, *_NUMERIC, *_SIZES})
PATTERN_TIMEOUT_S = 0.05  # a rule's regex never runs unbounded


class CrossFieldRuleError(AutofixError, ValueError):
    """A cross-field rule is malformed; the message says which part and what is allowed."""


def fragment(spec: Any) -> Fragment:
    """``spec`` as a fragment: a mapping of known keywords, or a bare value meaning ``const``."""
    if not isinstance(spec, Mapping):
        return {"const": spec}
    unknown = sorted(set(spec) - KEYWORDS)
    if unknown:
        raise CrossFieldRuleError(
            f"unknown keyword(s) {unknown} in {dict(spec)!r}; use {sorted(KEYWORDS)}, "
            "or write a plain semantic validator for anything else"
        )
    if PATTERN in spec:
        try:
            regex.compile(spec[PATTERN])
        except (regex.error, TypeError) as exc:
            raise CrossFieldRuleError(f"pattern {spec[PATTERN]!r} is not a regex: {exc}") from exc
    return dict(spec)


_COMPARE: dict[str, Callable[[Any, Any], bool]] = {
    "minimum": operator.ge,
    "maximum": operator.le,
    "exclusiveMinimum": operator.gt,
    "exclusiveMaximum": operator.lt,
}


def _size(value: Any) -> int | None:
    return len(value) if isinstance(value, str | list | tuple | dict) else None


def _contains_match(pattern: str, value: Any) -> bool:
    if not isinstance(value, str):
        return False
    try:
        return regex.search(pattern, value, timeout=PATTERN_TIMEOUT_S) is not None
    except TimeoutError:
        return False  # a value the rule cannot judge in time does not satisfy it


def holds(value: Any, frag: Mapping[str, Any]) -> bool:
    """Does a field's value (``None`` when absent) satisfy ``frag``?"""
    if PRESENT in frag and (value is not None) != bool(frag[PRESENT]):
        return False
    if value is None:
        return not any(
            k in frag for k in ("const", "enum", PATTERN, *_NUMERIC, "minItems", "minLength")
        )
    if "const" in frag and value != frag["const"]:
        return False
    if "enum" in frag and value not in frag["enum"]:
        return False
    if PATTERN in frag and not _contains_match(frag[PATTERN], value):
        return False
    number = isinstance(value, int | float) and not isinstance(value, bool)
    for key, ok in _COMPARE.items():
        if key in frag and (not number or not ok(value, frag[key])):
            return False
    size = _size(value)
    for key in _SIZES:
        if key in frag:
            if size is None:
                return False
            if key.startswith("min") and size < frag[key]:
                return False
            if key.startswith("max") and size > frag[key]:
                return False
    return True


def describe(frag: Mapping[str, Any]) -> str:
    """A fragment in words, for error messages and feedback."""
    words = {
        "minimum": ">= {}",
        "maximum": "<= {}",
        "exclusiveMinimum": "> {}",
        "exclusiveMaximum": "< {}",
        "minItems": "at least {} item(s)",
        "maxItems": "at most {} item(s)",
        "minLength": "at least {} character(s)",
        "maxLength": "at most {} character(s)",
    }
    parts = []
    if PRESENT in frag:
        parts.append("given" if frag[PRESENT] else "absent or null")
    if "const" in frag:
        parts.append(f"{frag['const']!r}")
    if "enum" in frag:
        parts.append("one of " + ", ".join(repr(v) for v in frag["enum"]))
    if PATTERN in frag:
        parts.append(f"matching /{frag[PATTERN]}/")
    parts += [words[k].format(frag[k]) for k in words if k in frag]
    return " and ".join(parts) or "anything"


def complement(frag: Mapping[str, Any], own: Mapping[str, Any]) -> Fragment | None:
    """A fragment for "not ``frag``" within the field's own schema ``own``, when one exists:
    the other values of an enum or a boolean, the other side of one numeric bound, the other
    side of ``present``. None when the schema cannot say it."""
    keys = set(frag)
    if keys == {PRESENT}:
        return {PRESENT: not frag[PRESENT]}
    values = own.get("enum") or ([False, True] if own.get("type") == "boolean" else None)
    if keys <= {"const", "enum"} and values is not None:
        chosen = [frag["const"]] if "const" in frag else list(frag["enum"])
        rest = [v for v in values if v not in chosen]
        return {"enum": rest} if rest else None
    flips = {
        "minimum": "exclusiveMaximum",
        "exclusiveMinimum": "maximum",
        "maximum": "exclusiveMinimum",
        "exclusiveMaximum": "minimum",
    }
    if len(keys) == 1 and (key := next(iter(keys))) in flips:
        return {flips[key]: frag[key]}
    return None


def _json_data(value: Any) -> dict[str, Any]:
    if isinstance(value, BaseModel):
        dumped = value.model_dump(mode="json", by_alias=True)
        return dumped if isinstance(dumped, dict) else {}
    return dict(value) if isinstance(value, Mapping) else {}


@dataclass(frozen=True)
class CrossFieldRule:
    """Base of the rules below: a semantic validator with ``variants`` and ``solve``."""

    message: str | None = field(default=None, kw_only=True)

    @property
    def fields(self) -> tuple[str, ...]:
        raise NotImplementedError

    def violation(self, data: Mapping[str, Any]) -> str | None:
        """Why ``data`` breaks the rule, or None."""
        raise NotImplementedError

    def variants(self, properties: Properties) -> list[Variant] | None:
        """The rule as alternative constraints on the fields (one ``Variant`` per anyOf
        branch), or None when the schema cannot say it."""
        return None

    def solve(self, data: Mapping[str, Any], properties: Properties | None = None) -> Variant:
        """For ``data`` that breaks the rule: the fields to decode again, each with what it
        must then satisfy given the others ({} : the rule cannot say). ``properties``, the
        object's own schemas, lets a rule pick a field whose bounds admit the solution."""
        return {}

    def __call__(self, value: Any) -> list[FieldError]:
        data = _json_data(value)
        why = self.violation(data)
        if why is None:
            return []
        targets = list(self.solve(data)) or list(self.fields[-1:])
        return [
            FieldError(
                path=targets[0],
                category=ErrorCategory.SEMANTIC_ERROR,
                message=self.message or why,
            )
        ]


@dataclass(frozen=True)
class When(CrossFieldRule):
    """A conditional requirement: when every field of ``condition`` holds, every field of
    ``then`` must hold. ``When({"type": "recommendation"}, {"items": {"minItems": 1}})``."""

    condition: Mapping[str, Any] = field(default_factory=dict)
    then: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.condition or not self.then:
            raise CrossFieldRuleError("When needs a condition and a then, each a non-empty mapping")
        object.__setattr__(self, "condition", {k: fragment(v) for k, v in self.condition.items()})
        object.__setattr__(self, "then", {k: fragment(v) for k, v in self.then.items()})

    @property
    def fields(self) -> tuple[str, ...]:
        return (*self.condition, *self.then)

    def _applies(self, data: Mapping[str, Any]) -> bool:
        return all(holds(data.get(k), f) for k, f in self.condition.items())

    def violation(self, data: Mapping[str, Any]) -> str | None:
        if not self._applies(data):
            return None
        broken = [k for k, f in self.then.items() if not holds(data.get(k), f)]
        if not broken:
            return None
        when = ", ".join(f"{k} is {describe(f)}" for k, f in self.condition.items())
        must = "; ".join(f"{k} must be {describe(self.then[k])}" for k in broken)
        return f"when {when}: {must}"

    def variants(self, properties: Properties) -> list[Variant] | None:
        if len(self.condition) != 1:
            return None
        ((name, cond),) = self.condition.items()
        other = complement(cond, properties.get(name, {}))
        if other is None:
            return None
        return [{name: cond, **self.then}, {name: other}]

    def solve(self, data: Mapping[str, Any], properties: Properties | None = None) -> Variant:
        if not self._applies(data):
            return {}
        return {k: dict(f) for k, f in self.then.items() if not holds(data.get(k), f)}


@dataclass(frozen=True)
class _OverNames(CrossFieldRule):
    """A rule over two or more named fields."""

    names: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "names", tuple(self.names))
        if len(self.names) < 2:
            raise CrossFieldRuleError(f"{type(self).__name__} needs at least two field names")

    @property
    def fields(self) -> tuple[str, ...]:
        return self.names


@dataclass(frozen=True)
class Exclusive(_OverNames):
    """At most one of ``names`` is given (not null); ``required``: exactly one."""

    required: bool = False

    def violation(self, data: Mapping[str, Any]) -> str | None:
        given = [n for n in self.names if data.get(n) is not None]
        if len(given) > 1:
            return f"{' and '.join(given)} exclude each other: give only one"
        if not given and self.required:
            return f"give exactly one of {', '.join(self.names)}"
        return None

    def variants(self, properties: Properties) -> list[Variant] | None:
        branches: list[Variant] = [
            {n: {PRESENT: n == chosen} for n in self.names} for chosen in self.names
        ]
        if not self.required:
            branches.append({n: {PRESENT: False} for n in self.names})
        return branches

    def solve(self, data: Mapping[str, Any], properties: Properties | None = None) -> Variant:
        given = [n for n in self.names if data.get(n) is not None]
        if len(given) > 1:
            return {n: {PRESENT: False} for n in given[1:]}
        if not given and self.required:
            return {self.names[0]: {PRESENT: True}}
        return {}


@dataclass(frozen=True)
class Ordered(_OverNames):
    """Numbers in order: ``names[0] <= names[1] <= ...`` (``strict``: ``<``)."""

    strict: bool = False

    def _first_break(self, data: Mapping[str, Any]) -> tuple[str, str] | None:
        for low, high in zip(self.names, self.names[1:], strict=False):
            a: Any = data.get(low)
            b: Any = data.get(high)
            if _number(a) and _number(b) and (a >= b if self.strict else a > b):
                return low, high
        return None

    def violation(self, data: Mapping[str, Any]) -> str | None:
        pair = self._first_break(data)
        if pair is None:
            return None
        low, high = pair
        sign = ">" if self.strict else ">="
        return f"{high} ({data[high]}) must be {sign} {low} ({data[low]})"

    def solve(self, data: Mapping[str, Any], properties: Properties | None = None) -> Variant:
        pair = self._first_break(data)
        if pair is None:
            return {}
        low, high = pair
        raised = {"exclusiveMinimum" if self.strict else "minimum": data[low]}
        lowered = {"exclusiveMaximum" if self.strict else "maximum": data[high]}
        own = properties or {}
        # The later field raised to the earlier one, unless its bounds leave no room (an end
        # hour after 23): then the earlier one lowered to the later one.
        for name, frag in ((high, raised), (low, lowered)):
            if admits(own.get(name, {}), frag):
                return {name: frag}
        return {high: raised}


@dataclass(frozen=True)
class Total(_OverNames):
    """The sum of numeric fields: ``equals``, ``at_most`` and/or ``at_least`` a bound."""

    equals: float | None = None
    at_most: float | None = None
    at_least: float | None = None

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.equals is None and self.at_most is None and self.at_least is None:
            raise CrossFieldRuleError("Total needs equals, at_most or at_least")

    def violation(self, data: Mapping[str, Any]) -> str | None:
        values: list[Any] = [data.get(n) for n in self.names]
        if not all(_number(v) for v in values):
            return None  # the schema reports a missing or non-numeric field
        total = sum(values)
        bad = (
            (self.equals is not None and not math.isclose(total, self.equals))
            or (self.at_most is not None and total > self.at_most)
            or (self.at_least is not None and total < self.at_least)
        )
        if not bad:
            return None
        want = describe(self._bounds(0.0))
        return f"{' + '.join(self.names)} is {total:g}; it must be {want}"

    def _bounds(self, rest: float) -> Fragment:
        out: Fragment = {}
        if self.equals is not None:
            out["const"] = _tidy(self.equals - rest)
        if self.at_most is not None:
            out["maximum"] = _tidy(self.at_most - rest)
        if self.at_least is not None:
            out["minimum"] = _tidy(self.at_least - rest)
        return out

    def solve(self, data: Mapping[str, Any], properties: Properties | None = None) -> Variant:
        """The last field whose own bounds admit what the others leave; when no one field
        can, the spread of ``_spread``; else the last field (the schema's bounds then win)."""
        properties = properties or {}
        solutions: list[tuple[str, Fragment]] = []
        for name in reversed(self.names):
            others: list[Any] = [data.get(n) for n in self.names if n != name]
            if all(_number(v) for v in others):
                solutions.append((name, self._bounds(float(sum(others)))))
        for name, frag in solutions:
            if admits(properties.get(name, {}), frag):
                return {name: frag}
        return self._spread(data, properties) or dict(solutions[:1])

    def _spread(self, data: Mapping[str, Any], properties: Properties) -> Variant:
        """The difference moved over the fields from the last, each to the value nearest its
        own that its bounds allow (40 + 90 + 65 = 100: memory 60, storage 0); {} if they
        cannot hold it."""
        values: list[Any] = [data.get(n) for n in self.names]
        if not all(_number(v) for v in values):
            return {}
        total = sum(values)
        target = total if self.equals is None else self.equals
        if self.at_most is not None:
            target = min(target, self.at_most)
        if self.at_least is not None:
            target = max(target, self.at_least)
        change = target - total
        moved: dict[str, float] = {}
        for name, value in reversed(list(zip(self.names, values, strict=True))):
            if math.isclose(change, 0.0, abs_tol=1e-9):
                break
            own = properties.get(name, {})
            span = numeric_range(own.get("type"), own.items())
            if span is None:
                return {}
            new = min(max(value + change, span[0]), span[1])
            if own.get("type") == "integer" and not float(new).is_integer():
                return {}
            if new != value:
                moved[name] = new
                change -= new - value
        if not math.isclose(change, 0.0, abs_tol=1e-9):
            return {}
        return {n: {"const": _tidy(moved[n])} for n in self.names if n in moved}


def admits(own: Mapping[str, Any], frag: Mapping[str, Any]) -> bool:
    """Does a field whose schema is ``own`` have a value satisfying ``frag`` (numbers only;
    anything else is assumed to)?"""
    if "const" in frag:
        return holds(frag["const"], {k: own[k] for k in _NUMERIC if k in own})
    return numeric_range(own.get("type"), [*own.items(), *frag.items()]) is not None


def numeric_range(kind: Any, bounds: Iterable[tuple[str, Any]]) -> tuple[float, float] | None:
    """The closed interval the (keyword, value) ``bounds`` leave (integers: whole ends), None
    when empty; the tighter of two bounds on one side wins, other keywords are ignored."""
    low, high = -math.inf, math.inf
    step = 1 if kind == "integer" else 0
    for key, value in bounds:
        if key == "minimum":
            low = max(low, value)
        elif key == "exclusiveMinimum":
            low = max(low, math.floor(value) + 1 if step else math.nextafter(value, math.inf))
        elif key == "maximum":
            high = min(high, value)
        elif key == "exclusiveMaximum":
            high = min(high, math.ceil(value) - 1 if step else math.nextafter(value, -math.inf))
    if step:  # whole ends; an open side stays infinite
        low = math.ceil(low) if math.isfinite(low) else low
        high = math.floor(high) if math.isfinite(high) else high
    return (low, high) if low <= high else None


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _tidy(value: float) -> float | int:
    return int(value) if float(value).is_integer() else value


def cross_field_rules(validators: Sequence[Any]) -> tuple[CrossFieldRule, ...]:
    """The cross-field rules among a validator's semantic validators."""
    return tuple(v for v in validators if isinstance(v, CrossFieldRule))


RULES_ATTRIBUTE = "__autofix_rules__"


def model_rules(model: type[BaseModel]) -> tuple[CrossFieldRule, ...]:
    """The rules a model declares as ``__autofix_rules__ = [When(...), Ordered(...)]``: every
    validator of that model checks them, and constrained decoding holds them."""
    declared = getattr(model, RULES_ATTRIBUTE, ())
    rules = tuple(declared) if isinstance(declared, list | tuple) else None
    if rules is None or not all(isinstance(r, CrossFieldRule) for r in rules):
        raise CrossFieldRuleError(
            f"{model.__name__}.{RULES_ATTRIBUTE} must be a list of When, Exclusive, Ordered "
            f"or Total rules, got {declared!r}"
        )
    return rules
