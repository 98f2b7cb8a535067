"""Validate a parsed value against a pydantic model; turn every problem into a FieldError.

Categories follow the feedback order (result.ErrorCategory). Choices worth knowing:
- a container where another shape was required (a list for an object, a string for a
  list), an unexpected field, or text that is not JSON at all is ``structural_error``;
- a value outside an enum or Literal is ``range_violation`` (outside the allowed set);
- errors raised by model validators and by the semantic validators given here are
  ``semantic_error``.
"""

from __future__ import annotations

import functools
import importlib
import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from pydantic import BaseModel, ValidationError

from autofix.errors import SchemaImportError
from autofix.result import ErrorCategory, FieldError

ROOT = "(root)"
ACTUAL_CHARS = 120

SemanticResult = str | FieldError | Iterable[str | FieldError] | None
SemanticValidator = Callable[[Any], SemanticResult]
SchemaLike = type[BaseModel] | str

_REQUIRED = frozenset(
    {
        "missing",
        "missing_argument",
        "missing_keyword_only_argument",
        "missing_positional_only_argument",
    }
)
_PATTERN = frozenset({"string_pattern_mismatch"})
_RANGE = frozenset(
    {
        "greater_than",
        "greater_than_equal",
        "less_than",
        "less_than_equal",
        "multiple_of",
        "too_short",
        "too_long",
        "string_too_short",
        "string_too_long",
        "finite_number",
        "decimal_max_digits",
        "decimal_max_places",
        "decimal_whole_digits",
        "date_past",
        "date_future",
        "datetime_past",
        "datetime_future",
        "enum",
        "literal_error",
    }
)
_STRUCTURAL = frozenset(
    {
        "model_type",
        "model_attributes_type",
        "dict_type",
        "mapping_type",
        "list_type",
        "tuple_type",
        "set_type",
        "frozen_set_type",
        "iterable_type",
        "dataclass_type",
        "dataclass_exact_type",
        "extra_forbidden",
        "json_invalid",
        "json_type",
        "union_tag_invalid",
        "union_tag_not_found",
    }
)
_SEMANTIC = frozenset({"value_error", "assertion_error"})

_EXPECTED_BY_TYPE = {
    "string": "string",
    "int": "integer",
    "float": "number",
    "bool": "boolean",
    "none": "null",
    "dict": "object",
    "mapping": "object",
    "list": "array",
    "tuple": "array",
    "set": "array of unique items",
    "frozen_set": "array of unique items",
    "date": "date (YYYY-MM-DD)",
    "datetime": "date-time (ISO 8601)",
    "time": "time (HH:MM[:SS])",
    "timedelta": "duration",
    "url": "URL",
    "uuid": "UUID",
    "decimal": "decimal number",
    "bytes": "string",
}


def resolve_schema(schema: SchemaLike) -> type[BaseModel]:
    """A model class, or its import path ``"pkg.mod:Model"`` / ``"pkg.mod.Model"``."""
    if isinstance(schema, type) and issubclass(schema, BaseModel):
        return schema
    if not isinstance(schema, str):
        raise TypeError(
            f"schema must be a pydantic model class or an import path, not {type(schema).__name__}"
        )
    module_name, sep, attr = schema.partition(":")
    if not sep:
        module_name, _, attr = schema.rpartition(".")
    if not module_name or not attr:
        raise SchemaImportError(
            f"schema {schema!r}: use 'package.module:Model' or 'package.module.Model'"
        )
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise SchemaImportError(
            f"schema {schema!r}: cannot import module {module_name!r}: {exc}"
        ) from exc
    target: Any = module
    for part in attr.split("."):
        target = getattr(target, part, None)
        if target is None:
            raise SchemaImportError(f"schema {schema!r}: {module_name!r} has no attribute {attr!r}")
    if not (isinstance(target, type) and issubclass(target, BaseModel)):
        raise SchemaImportError(f"schema {schema!r} is not a pydantic BaseModel subclass")
    return target


def preferred_format(model: type[BaseModel]) -> str | None:
    """A model may declare ``__autofix_format__ = "yaml"`` to have answers read as YAML."""
    value = getattr(model, "__autofix_format__", None)
    return value if value in ("json", "yaml") else None


# ---------------------------------------------------------------------------- helpers


def show(value: Any, limit: int = ACTUAL_CHARS) -> str:
    """A short JSON-ish rendering of a received value."""
    try:
        text = json.dumps(value, ensure_ascii=False, default=str)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def kind_of(value: Any) -> str:
    if isinstance(value, Mapping):
        return "an object"
    if isinstance(value, list | tuple):
        return "an array"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if value is None:
        return "null"
    return type(value).__name__


def join_path(parts: Sequence[str | int]) -> str:
    return ".".join(str(p) for p in parts) if parts else ROOT


def _clean_loc(
    loc: Sequence[str | int], data: Any, keep_last: bool
) -> tuple[list[str | int], Any, bool]:
    """Drop union-branch and validator tags from ``loc`` by walking the input data.

    Returns the cleaned path, the value found there and whether it was found.
    """
    parts: list[str | int] = []
    node = data
    found = True
    for index, part in enumerate(loc):
        last = index == len(loc) - 1
        if isinstance(node, Mapping) and part in node:
            parts.append(part)
            node = node[part]
        elif isinstance(node, list | tuple) and isinstance(part, int) and 0 <= part < len(node):
            node = node[part]
            parts.append(part)
        elif last and keep_last:
            parts.append(part)
            found = False
        # Anything else is a tag such as "int", "function-after[...]" or a model name.
    return parts, node, found


def _category(error_type: str) -> ErrorCategory:
    if error_type in _REQUIRED:
        return ErrorCategory.REQUIRED_MISSING
    if error_type in _PATTERN:
        return ErrorCategory.PATTERN_VIOLATION
    if error_type in _RANGE:
        return ErrorCategory.RANGE_VIOLATION
    if error_type in _STRUCTURAL:
        return ErrorCategory.STRUCTURAL_ERROR
    if error_type in _SEMANTIC:
        return ErrorCategory.SEMANTIC_ERROR
    return ErrorCategory.TYPE_MISMATCH


def _expected(
    error_type: str, ctx: Mapping[str, Any], schema: Mapping[str, Any], model: type[BaseModel]
) -> str | None:
    if error_type in _REQUIRED:
        return describe_schema(schema, model) if schema else None
    if error_type == "string_pattern_mismatch":
        return f"matches regex {ctx.get('pattern')}"
    bounds = {
        "greater_than": ("> ", "gt"),
        "greater_than_equal": (">= ", "ge"),
        "less_than": ("< ", "lt"),
        "less_than_equal": ("<= ", "le"),
        "multiple_of": ("a multiple of ", "multiple_of"),
    }
    if error_type in bounds:
        prefix, key = bounds[error_type]
        return f"{prefix}{ctx.get(key)}"
    if error_type in ("too_short", "string_too_short"):
        unit = "characters" if error_type.startswith("string") else "items"
        return f"at least {ctx.get('min_length')} {unit}"
    if error_type in ("too_long", "string_too_long"):
        unit = "characters" if error_type.startswith("string") else "items"
        return f"at most {ctx.get('max_length')} {unit}"
    if error_type in ("enum", "literal_error"):
        return f"one of {ctx.get('expected')}"
    if error_type == "extra_forbidden":
        return "no such field"
    if error_type in ("model_type", "model_attributes_type", "dataclass_type"):
        return (
            describe_schema(schema, model)
            if schema
            else f"object ({ctx.get('class_name', 'model')})"
        )
    for prefix, phrase in _EXPECTED_BY_TYPE.items():
        if error_type.startswith(prefix + "_") or error_type == prefix:
            return phrase
    return None


# ---------------------------------------------------------------------------- JSON schema walk


@functools.lru_cache(maxsize=128)
def _json_schema(model: type[BaseModel]) -> dict[str, Any]:
    try:
        return model.model_json_schema()
    except Exception:
        return {}


_PLURAL = {k: k + "s" for k in ("string", "integer", "number", "boolean", "object")}


def _deref(node: Mapping[str, Any], root: Mapping[str, Any]) -> Mapping[str, Any]:
    for _ in range(32):  # guard against self-referencing $ref chains
        ref = node.get("$ref")
        if not isinstance(ref, str) or not ref.startswith("#/"):
            break
        target: Any = root
        for part in ref[2:].split("/"):
            target = target.get(part, {}) if isinstance(target, Mapping) else {}
        node = target if isinstance(target, Mapping) else {}
    options = node.get("anyOf") or node.get("oneOf")
    if isinstance(options, list):
        non_null = [o for o in options if isinstance(o, Mapping) and o.get("type") != "null"]
        if len(non_null) == 1:
            return _deref(non_null[0], root)
    return node


def schema_at(model: type[BaseModel], path: Sequence[str | int]) -> Mapping[str, Any]:
    """The JSON schema node for ``path`` inside ``model`` ({} when unknown)."""
    root = _json_schema(model)
    node = _deref(root, root)
    for part in path:
        if isinstance(part, int) or (isinstance(part, str) and part.isdigit()):
            items = node.get("items")
            if not isinstance(items, Mapping):
                return {}
            node = _deref(items, root)
        else:
            props = node.get("properties")
            if not isinstance(props, Mapping) or part not in props:
                return {}
            node = _deref(props[part], root)
    return node


def _type_name(node: Mapping[str, Any], root: Mapping[str, Any]) -> str:
    node = _deref(node, root)
    kind = node.get("type")
    if "enum" in node:
        return "one of " + ", ".join(json.dumps(v) for v in node["enum"][:6])
    if "const" in node:
        return json.dumps(node["const"])
    if kind == "array":
        items = node.get("items")
        inner = _type_name(items, root) if isinstance(items, Mapping) else "value"
        if inner in _PLURAL:
            return f"array of {_PLURAL[inner]}"
        return "array" if inner == "value" else f"array of ({inner})"
    if kind == "object" or "properties" in node:
        return "object"
    if isinstance(kind, str):
        return kind
    options = node.get("anyOf") or node.get("oneOf")
    if isinstance(options, list):
        return " or ".join(_type_name(o, root) for o in options if isinstance(o, Mapping))
    return "value"


def describe_schema(
    node: Mapping[str, Any], model: type[BaseModel] | None = None, limit: int = 6
) -> str:
    """``object with `a` (array of string, required), `b` (integer)`` and the like."""
    root = _json_schema(model) if model is not None else node
    node = _deref(node, root)
    props = node.get("properties")
    if isinstance(props, Mapping) and props:
        required = set(node.get("required", []))
        fields = [
            f"`{name}` ({_type_name(sub, root)}{', required' if name in required else ''})"
            for name, sub in list(props.items())[:limit]
        ]
        more = f", and {len(props) - limit} more" if len(props) > limit else ""
        return "an object with " + ", ".join(fields) + more
    name = _type_name(node, root)
    return name if name != "value" else "a value"


_UNSET: Any = object()


def _article(phrase: str) -> str:
    if phrase.startswith(("a ", "an ", "one of")):
        return phrase
    return ("an " if phrase[:1] in "aeiou" else "a ") + phrase


def structural_hint(
    model: type[BaseModel], error: FieldError, received: Any = _UNSET
) -> str | None:
    """One sentence on the shape expected at ``error.path``, e.g.
    "`indicators` must be an object with a `technical_indicators` array, not a flat array."
    """
    root = _json_schema(model)
    if not root:
        return None
    parts: list[str | int] = (
        [] if error.path == ROOT else [int(p) if p.isdigit() else p for p in error.path.split(".")]
    )
    if error.expected == "no such field":
        parent = schema_at(model, parts[:-1]) if parts else {}
        props = parent.get("properties")
        if parts and isinstance(props, Mapping):
            allowed = ", ".join(f"`{name}`" for name in list(props)[:12])
            return f"`{parts[-1]}` is not a field here; allowed fields: {allowed}."
        return None
    node = schema_at(model, parts)
    if not node:
        return None
    props = node.get("properties")
    if isinstance(props, Mapping) and props:
        required = [name for name in node.get("required", []) if name in props]
        if len(required) == 1 and len(props) <= 2:
            name = required[0]
            shape = f"an object with a `{name}` {_type_name(props[name], root)}"
        else:
            shape = describe_schema(node, model)
    else:
        shape = _article(_type_name(node, root))
    tail = ""
    if (
        isinstance(received, list)
        and received
        and not any(isinstance(v, Mapping | list) for v in received)
    ):
        tail = ", not a flat array"
    elif received is not _UNSET:
        tail = f", not {kind_of(received)}"
    where = "The answer" if not parts else f"`{error.path}`"
    return f"{where} must be {shape}{tail}."


# ---------------------------------------------------------------------------- validation


def errors_from_pydantic(
    exc: ValidationError, data: Any, model: type[BaseModel]
) -> list[FieldError]:
    """Map pydantic's errors to FieldErrors with cleaned dotted paths, merged per path+category."""
    merged: dict[tuple[str, ErrorCategory], FieldError] = {}
    for item in exc.errors(include_url=False):
        error_type = item["type"]
        category = _category(error_type)
        parts, received, found = _clean_loc(
            item["loc"], data, keep_last=category is ErrorCategory.REQUIRED_MISSING
        )
        path = join_path(parts)
        expected = _expected(error_type, item.get("ctx") or {}, schema_at(model, parts), model)
        actual = None if category is ErrorCategory.REQUIRED_MISSING or not found else show(received)
        if error_type == "extra_forbidden":
            actual = show(item.get("input"))
        message = item["msg"]
        key = (path, category)
        previous = merged.get(key)
        if previous is not None:
            # Union branches report one error each at the same place: merge the expectations.
            if expected and previous.expected and expected not in previous.expected:
                merged[key] = previous.model_copy(
                    update={"expected": f"{previous.expected} or {expected}"}
                )
            continue
        merged[key] = FieldError(
            path=path, category=category, message=message, expected=expected, actual=actual
        )
    return list(merged.values())


def _as_errors(result: SemanticResult, name: str) -> list[FieldError]:
    if result is None:
        return []
    items: Iterable[str | FieldError] = [result] if isinstance(result, str | FieldError) else result
    errors: list[FieldError] = []
    for item in items:
        if isinstance(item, FieldError):
            errors.append(item)
        elif isinstance(item, str) and item.strip():
            errors.append(
                FieldError(path=ROOT, category=ErrorCategory.SEMANTIC_ERROR, message=item)
            )
        elif not isinstance(item, str):
            raise TypeError(
                f"semantic validator {name} returned {type(item).__name__}; return str or FieldError"
            )
    return errors


def _required_collections(instance: BaseModel, prefix: str = "") -> list[tuple[str, Any]]:
    """Required collection fields, looking inside required nested models too."""
    found: list[tuple[str, Any]] = []
    for name, info in type(instance).model_fields.items():
        if not info.is_required():
            continue
        value = getattr(instance, name)
        path = f"{prefix}{info.alias or name}"
        if isinstance(value, BaseModel):
            found += _required_collections(value, path + ".")
        elif isinstance(value, list | tuple | set | frozenset | dict):
            found.append((path, value))
    return found


def emptiness_errors(data: Any, instance: BaseModel) -> list[FieldError]:
    """An empty top-level answer, or every required collection empty, is no answer."""
    if isinstance(data, Mapping | list) and not data:
        return [
            FieldError(
                path=ROOT,
                category=ErrorCategory.SEMANTIC_ERROR,
                message="the answer is empty: it contains no items",
                expected="a non-empty answer",
                actual=show(data),
            )
        ]
    collections = _required_collections(instance)
    if collections and all(len(value) == 0 for _, value in collections):
        return [
            FieldError(
                path=path,
                category=ErrorCategory.SEMANTIC_ERROR,
                message="must not be empty: the answer contains no items",
                expected="at least 1 item",
                actual="{}" if isinstance(value, dict) else "[]",
            )
            for path, value in collections
        ]
    return []


def validate_value(
    data: Any,
    model: type[BaseModel],
    semantic_validators: Sequence[SemanticValidator] = (),
    *,
    allow_empty: bool = False,
) -> tuple[BaseModel | None, list[FieldError]]:
    """Validate ``data``; return (instance, []) or (None, errors).

    Semantic validators run only on a schema-valid instance. They return None, a message,
    a FieldError or a list of those; raising ValueError counts as one message.
    """
    try:
        instance = model.model_validate(data)
    except ValidationError as exc:
        return None, errors_from_pydantic(exc, data, model)
    errors = [] if allow_empty else emptiness_errors(data, instance)
    for validator in semantic_validators:
        name = getattr(validator, "__name__", repr(validator))
        try:
            errors += _as_errors(validator(instance), name)
        except (ValueError, AssertionError) as exc:
            errors.append(
                FieldError(
                    path=ROOT, category=ErrorCategory.SEMANTIC_ERROR, message=str(exc) or name
                )
            )
    return (None, errors) if errors else (instance, [])
