"""The output schema: a pydantic model (or its import path), its JSON schema walked, its shapes in words."""

from __future__ import annotations

import functools
import importlib
import json
from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import BaseModel

from autofix.errors import SchemaImportError
from autofix.result import FieldError
from autofix.validation.extract import PayloadFormat

ROOT = "(root)"
ACTUAL_CHARS = 120

SchemaLike = type[BaseModel] | str


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


def preferred_format(model: type[BaseModel]) -> PayloadFormat | None:
    """A model may declare ``__autofix_format__ = "yaml"`` to have answers read as YAML."""
    value = getattr(model, "__autofix_format__", None)
    return PayloadFormat(value) if value in (PayloadFormat.JSON, PayloadFormat.YAML) else None


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
