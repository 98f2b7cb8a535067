"""Validate a parsed value against a pydantic model; every problem becomes a FieldError."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from pydantic import BaseModel, ValidationError

from autofix.result import ErrorCategory, FieldError
from autofix.validation.schema import ROOT, describe_schema, schema_at, show

SemanticResult = str | FieldError | Iterable[str | FieldError] | None
SemanticValidator = Callable[[Any], SemanticResult]

# pydantic error types by category, in the feedback order (result.ErrorCategory). A container
# where another shape was required, an unexpected field, or text that is not JSON at all is
# structural; a value outside an enum or Literal is a range violation (outside the allowed set);
# errors from model validators and from the semantic validators given here are semantic.
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
